package io.bulwark.remediation.internal;

import io.bulwark.api.remediation.Run;
import io.bulwark.api.remediation.RunState;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The runs kept, counted by state as the remediation page and {@code /metrics} show them: a dry run
 * that ended having shown its plan did nothing to the node, so it counts as {@value #DRY_RUN},
 * never as {@code succeeded}.
 */
final class RunCounts {
  /** The count of dry runs that ended having shown their plan. */
  static final String DRY_RUN = "dry-run";

  private RunCounts() {}

  /** Returns the count per state (every state, then {@value #DRY_RUN}), zeros included. */
  static Map<String, Integer> of(Iterable<Run> runs) {
    Map<String, Integer> counts = new LinkedHashMap<>();
    for (RunState s : RunState.values()) {
      counts.put(s.apiName(), 0);
    }
    counts.put(DRY_RUN, 0);
    for (Run r : runs) {
      String key = r.dryRun() && r.state() == RunState.SUCCEEDED ? DRY_RUN : r.state().apiName();
      counts.merge(key, 1, Integer::sum);
    }
    return counts;
  }
}
