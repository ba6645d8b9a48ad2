package io.bulwark.api.scheduler;

import java.util.List;
import java.util.Objects;

/**
 * A job running now, and where.
 *
 * @param scheduler the connector's {@linkplain SchedulerConnector#name() name}
 * @param id the job's id in that scheduler (Slurm job id, PBS job id, namespace/pod)
 * @param nodes the scheduler's names of the nodes it runs on (host names), in the scheduler's order
 * @since 1.1
 */
public record SchedulerJob(String scheduler, String id, List<String> nodes) {
  /** Requires every field; copies the nodes. */
  public SchedulerJob {
    Objects.requireNonNull(scheduler, "scheduler");
    Objects.requireNonNull(id, "id");
    nodes = List.copyOf(nodes);
  }
}
