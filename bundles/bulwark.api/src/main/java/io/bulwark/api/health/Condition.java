package io.bulwark.api.health;

import io.bulwark.api.fleet.NodeId;
import java.util.Map;
import java.util.Objects;

/**
 * What a detector sees now on one GPU (or one node, {@code gpu} = -1): the kind of problem, how bad
 * it is, a one-line summary for an operator, the evidence (metric values, codes, thresholds) and
 * the recommended action. The health engine turns conditions into {@link Finding}s: the same kind
 * on the same node and GPU updates the same finding.
 *
 * @param performanceFactor the share of its nominal performance the GPU delivers while this holds,
 *     in (0, 1]; 1 when the condition does not slow it down. Used by the capacity account for GPUs
 *     that still serve.
 */
public record Condition(
    String kind,
    NodeId node,
    int gpu,
    Severity severity,
    String summary,
    Map<String, String> evidence,
    String recommendedAction,
    double performanceFactor) {

  public Condition {
    if (!FindingKind.isValid(kind)) {
      throw new IllegalArgumentException("not a valid finding kind: " + kind);
    }
    Objects.requireNonNull(node, "node");
    Objects.requireNonNull(severity, "severity");
    Objects.requireNonNull(summary, "summary");
    evidence = Map.copyOf(evidence);
    recommendedAction = Objects.requireNonNullElse(recommendedAction, "");
    if (gpu < -1) {
      throw new IllegalArgumentException("GPU index must be >= -1: " + gpu);
    }
    if (!(performanceFactor > 0 && performanceFactor <= 1)) {
      throw new IllegalArgumentException(
          "performance factor must be in (0, 1]: " + performanceFactor);
    }
  }

  /** Returns the key under which the engine tracks this condition: kind, node and GPU. */
  public String key() {
    return Finding.keyOf(kind, node, gpu);
  }
}
