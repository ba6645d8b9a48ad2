package io.bulwark.api.remediation;

import java.time.LocalTime;
import java.util.List;
import java.util.Objects;

/**
 * The limits every run passes before it isolates a node, and the switches that stop automation.
 *
 * @param maxIsolatedPercent at most this share of the fleet's nodes isolated by runs at once (the
 *     count rounds down, but one node is always allowed)
 * @param maxIsolatedPerRack at most this many nodes of one rack isolated at once (0: no limit)
 * @param minAvailablePerPool never isolate a node if its scheduler partition or pool would keep
 *     fewer than this many available nodes
 * @param flapRuns a node that had this many runs within {@code flapWindowMinutes} goes to a person
 *     instead of another run
 * @param flapWindowMinutes the flap window
 * @param cooldownMinutes after a run on a node ends, no new run starts there for this long
 * @param breakerFailures after this many failed runs in a row, automation stops until an admin
 *     resets the breaker
 * @param windows the maintenance windows destructive steps may start in (local time of the
 *     appliance); empty: at any time
 * @param killSwitch true: no step is carried out anywhere, runs wait where they are
 * @param breakerOpen true while the circuit breaker has tripped
 * @param failuresInARow the failed runs counted since the last success or reset
 */
public record Guardrails(
    int maxIsolatedPercent,
    int maxIsolatedPerRack,
    int minAvailablePerPool,
    int flapRuns,
    int flapWindowMinutes,
    int cooldownMinutes,
    int breakerFailures,
    List<Window> windows,
    boolean killSwitch,
    boolean breakerOpen,
    int failuresInARow) {

  /** A daily window, {@code start} to {@code end} (an end before the start crosses midnight). */
  public record Window(LocalTime start, LocalTime end) {
    /** Requires both ends. */
    public Window {
      Objects.requireNonNull(start, "start");
      Objects.requireNonNull(end, "end");
    }

    /** Returns true if {@code t} is inside. */
    public boolean contains(LocalTime t) {
      return start.isBefore(end) || start.equals(end)
          ? !t.isBefore(start) && t.isBefore(end)
          : !t.isBefore(start) || t.isBefore(end);
    }
  }

  /**
   * @throws IllegalArgumentException if a limit is out of its range; the message names it
   */
  public Guardrails {
    range("maxIsolatedPercent", maxIsolatedPercent, 1, 100);
    range("maxIsolatedPerRack", maxIsolatedPerRack, 0, 10_000);
    range("minAvailablePerPool", minAvailablePerPool, 0, 10_000);
    range("flapRuns", flapRuns, 1, 100);
    range("flapWindowMinutes", flapWindowMinutes, 1, 30 * 24 * 60);
    range("cooldownMinutes", cooldownMinutes, 0, 7 * 24 * 60);
    range("breakerFailures", breakerFailures, 1, 1000);
    windows = windows == null ? List.of() : List.copyOf(windows);
  }

  private static void range(String name, int value, int min, int max) {
    if (value < min || value > max) {
      throw new IllegalArgumentException(
          name + " must be between " + min + " and " + max + ", not " + value);
    }
  }

  /** The defaults: 10% of the fleet, 2 per rack, 2 available per pool, 2 runs a day... */
  public static Guardrails defaults() {
    return new Guardrails(10, 2, 2, 2, 24 * 60, 30, 3, List.of(), false, false, 0);
  }

  /** Returns these limits with the switches of {@code state}. */
  public Guardrails withSwitches(boolean kill, boolean open, int failures) {
    return new Guardrails(
        maxIsolatedPercent,
        maxIsolatedPerRack,
        minAvailablePerPool,
        flapRuns,
        flapWindowMinutes,
        cooldownMinutes,
        breakerFailures,
        windows,
        kill,
        open,
        failures);
  }
}
