package io.bulwark.api.scheduler;

import java.util.List;
import java.util.Optional;

/**
 * One workload manager's view of its nodes, registered as an OSGi service by its connector bundle.
 * Every call goes to the scheduler (no cache here); a caller that needs the whole fleet calls
 * {@link #nodes()} once and works from the answer. Implementations are thread-safe and bound every
 * call by a timeout. A node is never reported drained when the scheduler does not say so.
 */
@org.osgi.annotation.versioning.ConsumerType
public interface SchedulerConnector {

  /** Returns the scheduler's kind and instance in words, e.g. {@code slurm} or {@code pbs}. */
  String name();

  /**
   * Returns every node the scheduler knows, with its state, partitions and running jobs.
   *
   * @throws SchedulerException if the scheduler cannot be reached or answers nonsense
   */
  List<SchedulerNode> nodes() throws SchedulerException;

  /**
   * Returns one node, or empty if the scheduler does not know it.
   *
   * @throws SchedulerException if the scheduler cannot be reached or answers nonsense
   */
  Optional<SchedulerNode> node(String name) throws SchedulerException;

  /**
   * Stops new work from starting on the node, with {@code reason} recorded where the scheduler's
   * own tools show it (Slurm's Reason, a PBS comment, a Kubernetes taint and annotation); work
   * already running goes on until it ends or {@link #evict} is called. Idempotent: draining a node
   * that is draining or drained succeeds.
   *
   * @throws SchedulerException if the scheduler refuses or cannot be reached; the node's state is
   *     then unchanged as far as this connector knows
   */
  void drain(String node, String reason) throws SchedulerException;

  /**
   * Ends the work still running on a drained node the way the scheduler allows (Kubernetes: the
   * Eviction API, honouring disruption budgets). Returns true if nothing is left to end, false if
   * the scheduler holds some of it back for now (a disruption budget) and it should be asked again
   * later. A scheduler without such a notion returns whether the node runs no job.
   *
   * @throws SchedulerException if the scheduler refuses or cannot be reached
   */
  default boolean evict(String node) throws SchedulerException {
    return node(node).map(n -> n.jobs().isEmpty()).orElse(true);
  }

  /**
   * Returns the node to service: new work may start on it again. Idempotent.
   *
   * @throws SchedulerException if the scheduler refuses or cannot be reached
   */
  void resume(String node, String reason) throws SchedulerException;
}
