package io.bulwark.sim.internal;

import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The faults currently put on the simulated fleet. Writers (the control API, the demo scenario) add
 * and remove faults; page rendering reads a snapshot without locking, so a scrape never waits on a
 * write. Faults with a duration clear by themselves once it has passed, and the GPU reads healthy
 * again. Thread-safe.
 */
final class FaultBook {
  private static final System.Logger LOG = System.getLogger(FaultBook.class.getName());

  private final AtomicLong lastId = new AtomicLong();
  private volatile List<Fault> faults = List.of();

  /**
   * Adds a fault that starts at {@code startMillis} and lasts {@code durationMillis}, or until
   * deleted when that is {@link Fault#UNTIL_DELETED}. Returns the fault with its new id.
   */
  synchronized Fault add(
      String node, int gpu, FaultKind kind, int xid, long startMillis, long durationMillis) {
    long end =
        durationMillis == Fault.UNTIL_DELETED ? Fault.UNTIL_DELETED : startMillis + durationMillis;
    Fault fault =
        new Fault(Long.toString(lastId.incrementAndGet()), node, gpu, kind, xid, startMillis, end);
    List<Fault> next = new ArrayList<>(faults);
    next.add(fault);
    faults = List.copyOf(next);
    LOG.log(
        Level.INFO,
        "Simulator: {0} injected, {1}",
        fault.describe(),
        end == Fault.UNTIL_DELETED ? "until deleted" : "for " + durationMillis / 1000 + " s");
    return fault;
  }

  /** Removes the fault with this id; returns it, or empty if there is none. */
  synchronized Optional<Fault> remove(String id) {
    List<Fault> next = new ArrayList<>(faults);
    Optional<Fault> removed = next.stream().filter(f -> f.id().equals(id)).findFirst();
    removed.ifPresent(
        f -> {
          next.remove(f);
          faults = List.copyOf(next);
          LOG.log(Level.INFO, "Simulator: {0} deleted; the GPU reads healthy again", f.describe());
        });
    return removed;
  }

  /** Drops the faults that have run their course by {@code nowMillis}. */
  synchronized void prune(long nowMillis) {
    List<Fault> next = new ArrayList<>(faults.size());
    for (Fault f : faults) {
      if (f.expiredAt(nowMillis)) {
        LOG.log(
            Level.INFO,
            "Simulator: {0} cleared after its duration; the GPU reads healthy again",
            f.describe());
      } else {
        next.add(f);
      }
    }
    if (next.size() != faults.size()) {
      faults = List.copyOf(next);
    }
  }

  /** Returns the faults that have not run their course by {@code nowMillis}, oldest first. */
  List<Fault> current(long nowMillis) {
    prune(nowMillis);
    return faults;
  }

  /** Returns the fault with this id if it has not run its course by {@code nowMillis}. */
  Optional<Fault> get(String id, long nowMillis) {
    return current(nowMillis).stream().filter(f -> f.id().equals(id)).findFirst();
  }

  /** Returns every fault held, expired or not, without pruning; for rendering. */
  List<Fault> snapshot() {
    return faults;
  }
}
