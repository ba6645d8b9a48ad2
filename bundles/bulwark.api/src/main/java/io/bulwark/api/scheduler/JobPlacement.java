package io.bulwark.api.scheduler;

import java.util.List;

/**
 * Which jobs run on which nodes now, across every installed scheduler: for detectors that compare
 * the nodes of one job (a node that runs slow drags a whole data-parallel job). Answers from memory
 * (refreshed in the background from the connectors); never blocks on a scheduler. Node names are
 * host names, as telemetry's nodes are named. Provided by {@code bulwark.remediation}.
 *
 * @since 1.1
 */
@org.osgi.annotation.versioning.ProviderType
public interface JobPlacement {

  /** Returns the jobs running now, as last read (empty when no scheduler is installed). */
  List<SchedulerJob> jobs();

  /** Returns when the jobs were last read from every scheduler, in epoch ms, or 0 if never. */
  long readAtMillis();
}
