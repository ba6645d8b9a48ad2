package io.bulwark.scheduler.kubernetes.internal;

import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.List;
import java.util.Map;

/**
 * Which pods on a node are its work, the way {@code kubectl drain} sees them: a pod counts unless a
 * DaemonSet runs it (it belongs to the node and would come straight back), it is the mirror of a
 * static pod (the kubelet runs it from a file; the API cannot evict it), or it has finished
 * (Succeeded or Failed). Used by {@link KubernetesConnector} for a node's jobs, its drain state and
 * what {@code evict} evicts.
 */
final class Workload {
  /** The annotation the kubelet puts on the API mirror of a static pod. */
  static final String MIRROR_ANNOTATION = "kubernetes.io/config.mirror";

  private Workload() {}

  /** Returns true if the pod is work that must leave the node before it counts as drained. */
  static boolean counts(Pod pod) {
    return !daemon(pod) && !mirror(pod) && !finished(pod);
  }

  /** Returns true if an eviction was accepted and the pod is shutting down. */
  static boolean terminating(Pod pod) {
    return pod.getMetadata() != null && pod.getMetadata().getDeletionTimestamp() != null;
  }

  /** Returns the pod as a job id: {@code namespace/name}. */
  static String id(Pod pod) {
    return pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName();
  }

  /** Returns the name of the node the pod is bound to, or "". */
  static String node(Pod pod) {
    return pod.getSpec() == null || pod.getSpec().getNodeName() == null
        ? ""
        : pod.getSpec().getNodeName();
  }

  static boolean daemon(Pod pod) {
    List<OwnerReference> owners =
        pod.getMetadata() == null ? null : pod.getMetadata().getOwnerReferences();
    if (owners == null) {
      return false;
    }
    return owners.stream()
        .anyMatch(o -> "DaemonSet".equals(o.getKind()) && !Boolean.FALSE.equals(o.getController()));
  }

  static boolean mirror(Pod pod) {
    Map<String, String> annotations =
        pod.getMetadata() == null ? null : pod.getMetadata().getAnnotations();
    return annotations != null && annotations.containsKey(MIRROR_ANNOTATION);
  }

  static boolean finished(Pod pod) {
    String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
    return "Succeeded".equals(phase) || "Failed".equals(phase);
  }
}
