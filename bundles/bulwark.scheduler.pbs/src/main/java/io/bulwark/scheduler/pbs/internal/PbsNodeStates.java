package io.bulwark.scheduler.pbs.internal;

import io.bulwark.api.scheduler.SchedulerState;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Reads a PBS node's state attribute, a comma-separated set of words such as {@code free}, {@code
 * job-busy} or {@code offline,job-exclusive} (OpenPBS Reference Guide, "Vnode States"; Torque's
 * pbsnodes(8), where {@code free} is "the absence of all other states"), as the state remediation
 * needs. A node is drained only when PBS says {@code offline}, no word that this connector does not
 * know, no job-* word, and no job on the node: anything PBS has not said is never taken as drained.
 */
final class PbsNodeStates {
  /** The server cannot reach the node's MoM, or does not know what it is doing. */
  private static final Set<String> DOWN = Set.of("down", "state-unknown", "stale", "unresolvable");

  /** Jobs run on the node. */
  private static final Set<String> WORKING = Set.of("job-busy", "job-exclusive", "job-sharing");

  /** Takes new work when not offline. */
  private static final Set<String> IN_SERVICE =
      Set.of("free", "busy", "resv-exclusive", "reserve", "time-shared");

  private static final String OFFLINE = "offline";

  private PbsNodeStates() {}

  /** Returns the words of a state attribute, lower case, in order; empty for a blank one. */
  static List<String> words(String state) {
    List<String> words = new ArrayList<>();
    for (String word : (state == null ? "" : state).split(",")) {
      String w = word.trim().toLowerCase(Locale.ROOT);
      if (!w.isEmpty()) {
        words.add(w);
      }
    }
    return words;
  }

  /** Maps a state attribute and the jobs listed on the node. */
  static SchedulerState of(String state, List<String> jobs) {
    List<String> words = words(state);
    if (words.isEmpty()) {
      return SchedulerState.UNKNOWN;
    }
    if (words.stream().anyMatch(DOWN::contains)) {
      return SchedulerState.DOWN;
    }
    boolean known =
        words.stream()
            .allMatch(w -> w.equals(OFFLINE) || WORKING.contains(w) || IN_SERVICE.contains(w));
    if (!known) {
      return SchedulerState.UNKNOWN;
    }
    if (!words.contains(OFFLINE)) {
      return SchedulerState.AVAILABLE;
    }
    boolean working = !jobs.isEmpty() || words.stream().anyMatch(WORKING::contains);
    return working ? SchedulerState.DRAINING : SchedulerState.DRAINED;
  }
}
