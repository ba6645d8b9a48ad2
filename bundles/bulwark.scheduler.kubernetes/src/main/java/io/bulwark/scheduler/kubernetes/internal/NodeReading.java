package io.bulwark.scheduler.kubernetes.internal;

import io.bulwark.api.scheduler.SchedulerNode;
import io.bulwark.api.scheduler.SchedulerState;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeCondition;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A node object and the pods bound to it, read as remediation needs them: DOWN when its Ready
 * condition is False or Unknown, AVAILABLE when it is Ready and schedulable, DRAINING when it is
 * cordoned with work on it, DRAINED when cordoned with none (DaemonSet, mirror and finished pods do
 * not count, see {@link Workload}), UNKNOWN when it reports no Ready condition. The scheduler's
 * words are those of {@code kubectl get nodes} ({@code Ready,SchedulingDisabled}). Used by {@link
 * KubernetesConnector}.
 */
final class NodeReading {
  private NodeReading() {}

  /** Reads {@code node}; {@code pods} are the pods bound to it (others are ignored). */
  static SchedulerNode read(Node node, List<Pod> pods, String poolLabel) {
    String name = node.getMetadata().getName();
    List<String> jobs =
        pods.stream()
            .filter(pod -> name.equals(Workload.node(pod)))
            .filter(Workload::counts)
            .map(Workload::id)
            .sorted()
            .toList();
    boolean cordoned =
        node.getSpec() != null && Boolean.TRUE.equals(node.getSpec().getUnschedulable());
    String ready = readyStatus(node);
    SchedulerState state;
    if (ready == null) {
      state = SchedulerState.UNKNOWN;
    } else if (!"True".equals(ready)) {
      state = SchedulerState.DOWN;
    } else if (!cordoned) {
      state = SchedulerState.AVAILABLE;
    } else {
      state = jobs.isEmpty() ? SchedulerState.DRAINED : SchedulerState.DRAINING;
    }
    String words = ready == null ? "Unknown" : "True".equals(ready) ? "Ready" : "NotReady";
    if (cordoned) {
      words += ",SchedulingDisabled";
    }
    Map<String, String> labels = node.getMetadata().getLabels();
    String pool = labels == null ? null : labels.get(poolLabel);
    Set<String> pools = pool == null || pool.isEmpty() ? Set.of() : Set.of(pool);
    return new SchedulerNode(name, state, words, DrainMark.reason(node), pools, jobs);
  }

  /**
   * Returns the Ready condition's status ({@code True}, {@code False}, {@code Unknown}) or null.
   */
  private static String readyStatus(Node node) {
    if (node.getStatus() == null || node.getStatus().getConditions() == null) {
      return null;
    }
    for (NodeCondition condition : node.getStatus().getConditions()) {
      if ("Ready".equals(condition.getType())) {
        return condition.getStatus() == null ? "Unknown" : condition.getStatus();
      }
    }
    return null;
  }
}
