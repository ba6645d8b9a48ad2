package io.bulwark.sim.internal;

import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The faults currently put on the simulated fleet, and those that have cleared. Writers (the
 * control API, the demo scenario) add and remove faults; page rendering reads one consistent
 * snapshot without locking, so a scrape never waits on a write. Faults with a duration clear by
 * themselves once it has passed, and the GPU reads healthy again; what a cleared fault added to the
 * cumulative counters stays (see {@link FaultEffects#accumulate}), which is why cleared faults are
 * kept, the newest {@link #HISTORY_LIMIT}. Thread-safe.
 */
final class FaultBook {
  /** How many cleared faults are kept for their counters. */
  static final int HISTORY_LIMIT = 10_000;

  private static final System.Logger LOG = System.getLogger(FaultBook.class.getName());

  /**
   * The faults held (expired or not) and those cleared, with the time they cleared as their end.
   */
  record Snapshot(List<Fault> held, List<Fault> cleared) {}

  private final AtomicLong lastId = new AtomicLong();
  private volatile Snapshot state = new Snapshot(List.of(), List.of());

  /**
   * Adds a fault that starts at {@code startMillis} and lasts {@code durationMillis}, or until
   * deleted when that is {@link Fault#UNTIL_DELETED}. Returns the fault with its new id.
   *
   * @param value the value of the kind's parameter, NaN for a kind without one
   */
  synchronized Fault add(
      String node, int gpu, FaultKind kind, double value, long startMillis, long durationMillis) {
    long end =
        durationMillis == Fault.UNTIL_DELETED ? Fault.UNTIL_DELETED : startMillis + durationMillis;
    Fault fault =
        new Fault(
            Long.toString(lastId.incrementAndGet()), node, gpu, kind, value, startMillis, end);
    List<Fault> next = new ArrayList<>(state.held());
    next.add(fault);
    state = new Snapshot(List.copyOf(next), state.cleared());
    LOG.log(
        Level.INFO,
        "Simulator: {0} injected, {1}",
        fault.describe(),
        end == Fault.UNTIL_DELETED ? "until deleted" : "for " + durationMillis / 1000 + " s");
    return fault;
  }

  /** Adds a fault with its kind's default parameter value; see {@link #add}. */
  Fault add(String node, int gpu, FaultKind kind, long startMillis, long durationMillis) {
    return add(node, gpu, kind, kind.defaultValue(), startMillis, durationMillis);
  }

  /**
   * Removes the fault with this id, clearing it at {@code nowMillis}; returns it, or empty if there
   * is none.
   */
  synchronized Optional<Fault> remove(String id, long nowMillis) {
    List<Fault> next = new ArrayList<>(state.held());
    Optional<Fault> removed = next.stream().filter(f -> f.id().equals(id)).findFirst();
    removed.ifPresent(
        f -> {
          next.remove(f);
          List<Fault> ended =
              nowMillis > f.startMillis() ? List.of(f.clearedAt(nowMillis)) : List.of();
          state = new Snapshot(List.copyOf(next), history(ended));
          LOG.log(Level.INFO, "Simulator: {0} deleted; the GPU reads healthy again", f.describe());
        });
    return removed;
  }

  /**
   * Clears the faults of {@code node} that a power cycle clears (at {@code nowMillis}); returns how
   * many.
   */
  synchronized int clearForReboot(String node, long nowMillis) {
    List<Fault> next = new ArrayList<>();
    List<Fault> ended = new ArrayList<>();
    for (Fault f : state.held()) {
      if (f.node().equals(node) && f.kind().clearedByReboot()) {
        if (nowMillis > f.startMillis()) {
          ended.add(f.clearedAt(nowMillis));
        }
        LOG.log(Level.INFO, "Simulator: {0} cleared by a power cycle of the node", f.describe());
      } else {
        next.add(f);
      }
    }
    int cleared = state.held().size() - next.size();
    if (cleared > 0) {
      state = new Snapshot(List.copyOf(next), history(ended));
    }
    return cleared;
  }

  /** Moves the faults that have run their course by {@code nowMillis} to the cleared ones. */
  synchronized void prune(long nowMillis) {
    List<Fault> next = new ArrayList<>();
    List<Fault> ended = new ArrayList<>();
    for (Fault f : state.held()) {
      if (f.expiredAt(nowMillis)) {
        ended.add(f);
        LOG.log(
            Level.INFO,
            "Simulator: {0} cleared after its duration; the GPU reads healthy again",
            f.describe());
      } else {
        next.add(f);
      }
    }
    if (!ended.isEmpty()) {
      state = new Snapshot(List.copyOf(next), history(ended));
    }
  }

  private List<Fault> history(List<Fault> ended) {
    List<Fault> all = new ArrayList<>(state.cleared());
    all.addAll(ended);
    return List.copyOf(all.subList(Math.max(0, all.size() - HISTORY_LIMIT), all.size()));
  }

  /** Returns the faults that have not run their course by {@code nowMillis}, oldest first. */
  List<Fault> current(long nowMillis) {
    prune(nowMillis);
    return state.held();
  }

  /** Returns the fault with this id if it has not run its course by {@code nowMillis}. */
  Optional<Fault> get(String id, long nowMillis) {
    return current(nowMillis).stream().filter(f -> f.id().equals(id)).findFirst();
  }

  /** Returns every fault held, expired or not, without pruning. */
  List<Fault> snapshot() {
    return state.held();
  }

  /** Returns the faults held and those cleared, as one consistent view; for rendering. */
  Snapshot view() {
    return state;
  }
}
