package io.bulwark.health.internal;

import io.bulwark.api.health.Condition;
import io.bulwark.api.health.DetectionContext;
import io.bulwark.api.health.Detector;
import io.bulwark.api.health.DetectorInput;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The detectors taking part in evaluations, as they come and go, and the evaluation of all of them:
 * a detector that throws (or returns null) fails this evaluation only and is logged once per run of
 * failures. Joining and leaving are thread-safe; {@link #evaluateAll} runs on the engine thread.
 */
final class DetectorRoster {
  private static final Logger LOG = System.getLogger(DetectorRoster.class.getName());

  private final List<Entry> detectors = new CopyOnWriteArrayList<>();
  private final Set<String> failing = ConcurrentHashMap.newKeySet();

  /** What one evaluation of all detectors gave. */
  record Evaluation(Map<String, List<Condition>> reported, Set<String> failed) {}

  /** Adds a detector; returns the name it is known by. */
  String add(Detector detector) {
    Entry entry = new Entry(detector, nameOf(detector));
    detectors.add(entry);
    return entry.name;
  }

  /** Removes a detector; returns the name it was known by, or null if it was not taking part. */
  String remove(Detector detector) {
    for (Entry e : detectors) {
      if (e.detector == detector) {
        detectors.remove(e);
        failing.remove(e.name);
        return e.name;
      }
    }
    return null;
  }

  /** Returns the names of the detectors taking part, in the order they joined. */
  List<String> names() {
    return detectors.stream().map(Entry::name).toList();
  }

  /**
   * Returns the inputs of every detector taking part, by name; a detector that fails to say is
   * listed with none (it is logged, not counted as blind).
   */
  Map<String, List<DetectorInput>> inputs() {
    Map<String, List<DetectorInput>> all = new LinkedHashMap<>();
    for (Entry e : detectors) {
      try {
        List<DetectorInput> in = e.detector.inputs();
        all.put(e.name, in == null ? List.of() : List.copyOf(in));
      } catch (RuntimeException ex) {
        LOG.log(Level.WARNING, "Detector ''{0}'' cannot list its inputs: {1}", e.name, ex);
        all.put(e.name, List.of());
      }
    }
    return all;
  }

  /**
   * Returns how long each detector took the last time it judged, in nanoseconds, by name: what each
   * costs the engine.
   */
  Map<String, Long> judgeNanos() {
    Map<String, Long> nanos = new LinkedHashMap<>();
    for (Entry e : detectors) {
      nanos.merge(e.name, e.lastJudgeNanos, Long::sum);
    }
    return nanos;
  }

  /**
   * Returns how many times each detector has judged since it joined, by name: a detector that
   * judges at a pace of its own (every 30 s, say) has seen the fleet as it is now only once this
   * grows.
   */
  Map<String, Long> judgements() {
    Map<String, Long> counts = new LinkedHashMap<>();
    for (Entry e : detectors) {
      counts.merge(e.name, e.judgements, Long::sum);
    }
    return counts;
  }

  /** Evaluates every detector once. */
  Evaluation evaluateAll(DetectionContext context) {
    Map<String, List<Condition>> reported = new LinkedHashMap<>();
    Set<String> failed = new HashSet<>();
    for (Entry e : detectors) {
      try {
        List<Condition> conditions = e.due(context.nowMillis()) ? e.judge(context) : e.lastReported;
        reported.computeIfAbsent(e.name, k -> new ArrayList<>()).addAll(conditions);
        if (failing.remove(e.name)) {
          LOG.log(Level.INFO, "Detector ''{0}'' evaluates again after failing", e.name);
        }
      } catch (RuntimeException ex) {
        failed.add(e.name);
        if (failing.add(e.name)) {
          LOG.log(
              Level.WARNING,
              "Detector '"
                  + e.name
                  + "' failed and is skipped in this evaluation; its open"
                  + " findings are kept unchanged until it evaluates again. Check the detector's configuration and"
                  + " the telemetry it reads.",
              ex);
        } else {
          LOG.log(Level.DEBUG, "Detector ''{0}'' failed again: {1}", e.name, ex.toString());
        }
      }
    }
    return new Evaluation(reported, failed);
  }

  private static String nameOf(Detector detector) {
    try {
      String name = detector.name();
      return name == null || name.isBlank() ? detector.getClass().getName() : name;
    } catch (RuntimeException e) {
      return detector.getClass().getName();
    }
  }

  /**
   * A detector taking part, and what it last reported: between two of its evaluations (its own
   * interval) the engine holds those conditions. Used on the engine thread.
   */
  private static final class Entry {
    final Detector detector;
    final String name;
    private final long intervalMillis;
    private long lastJudgedMillis = Long.MIN_VALUE;
    private List<Condition> lastReported = List.of();
    private volatile long lastJudgeNanos;
    private volatile long judgements;

    Entry(Detector detector, String name) {
      this.detector = detector;
      this.name = name;
      this.intervalMillis = intervalOf(detector);
    }

    String name() {
      return name;
    }

    /** Returns true if the detector's interval has passed since it last judged. */
    boolean due(long nowMillis) {
      return lastJudgedMillis == Long.MIN_VALUE
          || nowMillis - lastJudgedMillis >= intervalMillis
          || nowMillis < lastJudgedMillis;
    }

    List<Condition> judge(DetectionContext context) {
      long started = System.nanoTime();
      List<Condition> conditions = detector.evaluate(context);
      lastJudgeNanos = System.nanoTime() - started;
      if (conditions == null) {
        throw new IllegalStateException("detector returned null instead of a list of conditions");
      }
      lastJudgedMillis = context.nowMillis();
      lastReported = List.copyOf(conditions);
      judgements++;
      return conditions;
    }

    private static long intervalOf(Detector detector) {
      try {
        return Math.max(0, detector.evaluationIntervalMillis());
      } catch (RuntimeException e) {
        return 0;
      }
    }
  }
}
