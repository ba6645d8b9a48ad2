package io.bulwark.health.internal;

import io.bulwark.api.system.SubsystemState;
import io.bulwark.api.system.SubsystemStatus;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The health engine's self-report as the {@code engine} subsystem. DOWN when no evaluation has
 * completed for three intervals (at least 30 s): the engine thread died, hangs, or every evaluation
 * fails. DEGRADED when the last evaluation failed, when finding changes wait for a store that
 * refuses them, or when evaluations take longer than the interval. The engine thread records each
 * evaluation here; the status is read from any thread.
 */
final class EngineHealth {
  static final String SUBSYSTEM = "engine";

  private final long intervalMillis;
  private final long startedMillis;
  private long pacedMillis;
  private long evaluations;
  private long failures;
  private long lastCompletedMillis = -1;
  private long lastDurationNanos;
  private String lastFailure;
  private SubsystemState last = SubsystemState.UP;
  private Instant since;

  EngineHealth(long intervalMillis, long startedMillis) {
    this.intervalMillis = intervalMillis;
    this.pacedMillis = intervalMillis;
    this.startedMillis = startedMillis;
    this.since = Instant.ofEpochMilli(startedMillis);
  }

  /** Records an evaluation that completed at {@code endMillis} after {@code nanos}. */
  synchronized void completed(long endMillis, long nanos) {
    evaluations++;
    lastCompletedMillis = endMillis;
    lastDurationNanos = nanos;
    lastFailure = null;
  }

  /**
   * Records the interval the next evaluation runs at: the configured one, or telemetry's longer
   * sample interval while it sheds load.
   */
  synchronized void paced(long millis) {
    pacedMillis = millis;
  }

  /** Records an evaluation that failed with {@code cause}. */
  synchronized void failed(RuntimeException cause) {
    failures++;
    lastFailure = String.valueOf(cause);
  }

  /**
   * @param nowMillis the clock's time now
   * @param detectors how many detectors take part
   * @param openFindings how many findings are open
   * @param unsaved how many finding changes wait to be stored
   */
  synchronized SubsystemStatus status(
      long nowMillis, int detectors, int openFindings, int unsaved) {
    return status(nowMillis, detectors, openFindings, unsaved, Map.of(), Map.of());
  }

  /**
   * @param judgeNanos how long each detector took the last time it judged, by name
   * @param judgements how many times each detector has judged since it joined, by name
   */
  synchronized SubsystemStatus status(
      long nowMillis,
      int detectors,
      int openFindings,
      int unsaved,
      Map<String, Long> judgeNanos,
      Map<String, Long> judgements) {
    long stallMillis = Math.max(3 * pacedMillis, 30_000);
    long reference = lastCompletedMillis >= 0 ? lastCompletedMillis : startedMillis;
    long ageMillis = nowMillis - reference;
    SubsystemState state;
    String summary;
    String action = "";
    if (ageMillis > stallMillis) {
      state = SubsystemState.DOWN;
      summary =
          (lastCompletedMillis < 0
                  ? "no evaluation has completed since the engine started "
                  : "no evaluation has completed for ")
              + ageMillis / 1000
              + " s"
              + (lastFailure != null ? "; the last one failed: " + lastFailure : "")
              + ": findings and the capacity account are not being updated";
      action =
          "Check the log of the health engine (bulwark.health) for the cause; restart that bundle"
              + " if the engine thread hangs";
    } else if (lastFailure != null) {
      state = SubsystemState.DEGRADED;
      summary = "the last evaluation failed: " + lastFailure;
      action = "Check the log of the health engine and the state of telemetry and the store";
    } else if (unsaved > 0) {
      state = SubsystemState.DEGRADED;
      summary =
          unsaved
              + " finding change(s) wait to be stored (the store refuses writes); they are kept"
              + " in memory and shown, and stored once the store takes them";
      action = "See the store subsystem for why it refuses writes";
    } else if (lastDurationNanos > pacedMillis * 1_000_000L) {
      state = SubsystemState.DEGRADED;
      summary =
          "evaluations take "
              + lastDurationNanos / 1_000_000
              + " ms, longer than the "
              + pacedMillis
              + " ms interval: findings lag behind telemetry";
      action =
          "Raise evaluationIntervalMillis (PID io.bulwark.health) or reduce the fleet per appliance";
    } else {
      state = SubsystemState.UP;
      summary =
          lastCompletedMillis < 0
              ? "starting: the first evaluation is due"
              : "evaluating every "
                  + pacedMillis
                  + " ms"
                  + (pacedMillis > intervalMillis
                      ? " (at telemetry's pace: it sheds load; "
                          + intervalMillis
                          + " ms configured)"
                      : "")
                  + " with "
                  + detectors
                  + " detector(s); the last evaluation took "
                  + lastDurationNanos / 1_000_000
                  + " ms";
    }
    if (state != last) {
      last = state;
      since = Instant.ofEpochMilli(state == SubsystemState.DOWN ? reference : nowMillis);
    }
    Map<String, Double> gauges = new LinkedHashMap<>();
    gauges.put("bulwark_engine_evaluations_total", (double) evaluations);
    gauges.put("bulwark_engine_failed_evaluations_total", (double) failures);
    gauges.put("bulwark_engine_last_evaluation_seconds", lastDurationNanos / 1e9);
    gauges.put("bulwark_engine_last_evaluation_age_seconds", ageMillis / 1e3);
    gauges.put("bulwark_engine_detectors", (double) detectors);
    gauges.put("bulwark_engine_evaluation_interval_seconds", pacedMillis / 1e3);
    gauges.put("bulwark_engine_open_findings", (double) openFindings);
    gauges.put("bulwark_engine_unsaved_finding_changes", (double) unsaved);
    judgeNanos.forEach(
        (name, nanos) ->
            gauges.put(
                "bulwark_engine_detector_last_seconds_" + name.replaceAll("[^A-Za-z0-9_]", "_"),
                nanos / 1e9));
    judgements.forEach(
        (name, count) ->
            gauges.put(
                "bulwark_engine_detector_judgements_" + name.replaceAll("[^A-Za-z0-9_]", "_"),
                (double) count));
    return new SubsystemStatus(SUBSYSTEM, state, summary, action, since, gauges);
  }
}
