package io.bulwark.health.internal;

import io.bulwark.api.fleet.NodeId;
import io.bulwark.api.health.Condition;
import io.bulwark.api.health.Finding;
import io.bulwark.api.health.FindingState;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.Supplier;

/**
 * Turns the conditions detectors report into findings with hysteresis: a reported condition opens a
 * finding at once, keeps it up to date while reported, and resolves it only after it has been
 * absent for the resolve delay without a break; a condition that comes back earlier keeps the same
 * finding. Used by the health engine on its evaluation thread only; not thread-safe.
 */
final class FindingTracker {
  private final Map<String, Tracked> open = new LinkedHashMap<>();
  private final long resolveAfterMillis;
  private final long refreshPersistMillis;
  private final Supplier<String> ids;

  FindingTracker(long resolveAfterMillis, long refreshPersistMillis, Supplier<String> ids) {
    this.resolveAfterMillis = resolveAfterMillis;
    this.refreshPersistMillis = refreshPersistMillis;
    this.ids = ids;
  }

  /**
   * Takes over an open finding from the store. It does not resolve before {@code keepUntilMillis},
   * so detectors have time to report it again after a restart.
   *
   * @return a resolved copy of the finding this one supersedes when the store held two open
   *     findings for the same condition, to be stored; empty otherwise
   */
  Optional<Finding> restore(Finding finding, long nowMillis, long keepUntilMillis) {
    if (!finding.isOpen()) {
      return Optional.empty();
    }
    Tracked candidate =
        new Tracked(finding, "", finding.lastSeen().toEpochMilli(), keepUntilMillis);
    Tracked present = open.get(finding.key());
    if (present == null) {
      open.put(finding.key(), candidate);
      return Optional.empty();
    }
    Tracked keep = present.finding.lastSeen().isAfter(finding.lastSeen()) ? present : candidate;
    Tracked drop = keep == present ? candidate : present;
    open.put(finding.key(), keep);
    return Optional.of(drop.finding.resolve(Instant.ofEpochMilli(nowMillis)));
  }

  /**
   * Applies one evaluation.
   *
   * @param reportedByDetector the conditions each detector reported, by detector name
   * @param failedDetectors detectors whose evaluation failed: their findings neither update nor
   *     resolve now
   * @return the changes to store and announce, in order
   */
  List<FindingChange> apply(
      Map<String, List<Condition>> reportedByDetector,
      Set<String> failedDetectors,
      long nowMillis) {
    return apply(reportedByDetector, failedDetectors, nowMillis, (node, gpu) -> "");
  }

  /**
   * Applies one evaluation, giving new findings the UUID of their GPU.
   *
   * @param uuids the UUID of a GPU by node and index, empty if unknown
   */
  List<FindingChange> apply(
      Map<String, List<Condition>> reportedByDetector,
      Set<String> failedDetectors,
      long nowMillis,
      BiFunction<NodeId, Integer, String> uuids) {
    Map<String, Reported> reported = merge(reportedByDetector);
    List<FindingChange> changes = new ArrayList<>();
    Instant now = Instant.ofEpochMilli(nowMillis);
    for (Reported r : reported.values()) {
      Tracked t = open.get(r.condition.key());
      if (t == null) {
        Finding opened =
            new Finding(
                ids.get(),
                r.condition.kind(),
                r.condition.node(),
                r.condition.gpu(),
                r.condition.severity(),
                FindingState.OPEN,
                now,
                now,
                null,
                r.condition.summary(),
                r.condition.evidence(),
                r.condition.recommendedAction(),
                r.condition.performanceFactor(),
                1,
                r.condition.gpu() < 0 ? "" : uuids.apply(r.condition.node(), r.condition.gpu()));
        t = new Tracked(opened, r.detector, nowMillis, 0);
        t.persistedLastSeenMillis = nowMillis;
        open.put(r.condition.key(), t);
        changes.add(new FindingChange(FindingChange.Type.OPENED, opened));
      } else {
        String uuid =
            t.finding.gpuUuid().isEmpty() && r.condition.gpu() >= 0
                ? uuids.apply(r.condition.node(), r.condition.gpu())
                : t.finding.gpuUuid();
        update(t, r, nowMillis, uuid).ifPresent(changes::add);
      }
    }
    for (Iterator<Tracked> it = open.values().iterator(); it.hasNext(); ) {
      Tracked t = it.next();
      if (reported.containsKey(t.finding.key()) || failedDetectors.contains(t.detector)) {
        continue;
      }
      if (nowMillis - t.lastReportedMillis >= resolveAfterMillis
          && nowMillis >= t.keepUntilMillis) {
        it.remove();
        changes.add(new FindingChange(FindingChange.Type.RESOLVED, t.finding.resolve(now)));
      }
    }
    return changes;
  }

  /** Returns the tracked version of {@code f} if it is still open here, else {@code f} itself. */
  Finding freshest(Finding f) {
    Tracked t = open.get(f.key());
    return t != null && t.finding.id().equals(f.id()) ? t.finding : f;
  }

  /** Returns the open findings as they are now, including what is not yet written back. */
  List<Finding> openFindings() {
    return open.values().stream().map(t -> t.finding).toList();
  }

  /**
   * Updates an open finding; {@code uuid} is its GPU's UUID, learned now if the finding opened
   * before the exporter named the GPU (a UUID once set never changes).
   */
  private Optional<FindingChange> update(Tracked t, Reported r, long nowMillis, String uuid) {
    Finding before = t.finding;
    Condition c = r.condition;
    Finding after =
        new Finding(
            before.id(),
            before.kind(),
            before.node(),
            before.gpu(),
            c.severity(),
            FindingState.OPEN,
            before.firstSeen(),
            Instant.ofEpochMilli(nowMillis),
            null,
            c.summary(),
            c.evidence(),
            c.recommendedAction(),
            c.performanceFactor(),
            before.occurrences() + 1,
            uuid);
    t.finding = after;
    t.detector = r.detector;
    t.lastReportedMillis = nowMillis;
    // A new severity is news at once; a summary that only carries fresher numbers ("at 90.5 °C") is
    // written
    // back with the periodic refresh, so a throttling GPU does not cost a store write and a log
    // line per cycle.
    if (before.severity() != after.severity() || !before.gpuUuid().equals(after.gpuUuid())) {
      t.persistedLastSeenMillis = nowMillis;
      return Optional.of(new FindingChange(FindingChange.Type.CHANGED, after));
    }
    if (nowMillis - t.persistedLastSeenMillis >= refreshPersistMillis) {
      t.persistedLastSeenMillis = nowMillis;
      return Optional.of(new FindingChange(FindingChange.Type.REFRESHED, after));
    }
    return Optional.empty();
  }

  private static Map<String, Reported> merge(Map<String, List<Condition>> reportedByDetector) {
    Map<String, Reported> merged = new LinkedHashMap<>();
    reportedByDetector.forEach(
        (detector, conditions) -> {
          for (Condition c : conditions) {
            merged.merge(c.key(), new Reported(c, detector), Reported::worse);
          }
        });
    return merged;
  }

  private record Reported(Condition condition, String detector) {
    static Reported worse(Reported a, Reported b) {
      int bySeverity = a.condition.severity().compareTo(b.condition.severity());
      if (bySeverity != 0) {
        return bySeverity > 0 ? a : b;
      }
      return a.condition.performanceFactor() <= b.condition.performanceFactor() ? a : b;
    }
  }

  private static final class Tracked {
    Finding finding;
    String detector;
    long lastReportedMillis;
    final long keepUntilMillis;
    long persistedLastSeenMillis;

    Tracked(Finding finding, String detector, long lastReportedMillis, long keepUntilMillis) {
      this.finding = finding;
      this.detector = detector;
      this.lastReportedMillis = lastReportedMillis;
      this.keepUntilMillis = keepUntilMillis;
      this.persistedLastSeenMillis = finding.lastSeen().toEpochMilli();
    }
  }
}
