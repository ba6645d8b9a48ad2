package io.bulwark.api.scheduler;

import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * A node as its scheduler reports it.
 *
 * @param name the scheduler's node name
 * @param state where it stands
 * @param schedulerState the scheduler's own words for the state (e.g. {@code MIXED+DRAIN}), as its
 *     tools show it
 * @param reason the reason or comment recorded with a drain, or ""
 * @param pools the partitions (Slurm), queues (PBS) or node pools (Kubernetes) it is in
 * @param jobs the ids of the jobs (pods) running on it now
 */
public record SchedulerNode(
    String name,
    SchedulerState state,
    String schedulerState,
    String reason,
    Set<String> pools,
    List<String> jobs) {

  /** Copies the collections; requires the name and state. */
  public SchedulerNode {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(state, "state");
    schedulerState = schedulerState == null ? "" : schedulerState;
    reason = reason == null ? "" : reason;
    pools = Set.copyOf(pools);
    jobs = List.copyOf(jobs);
  }
}
