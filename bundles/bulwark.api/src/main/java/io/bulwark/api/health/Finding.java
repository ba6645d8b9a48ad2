package io.bulwark.api.health;

import io.bulwark.api.fleet.NodeId;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;

/**
 * A health finding on one GPU (or one node, {@code gpu} = -1): a condition a detector reported,
 * from when it was first seen until it cleared. Findings are what operators see, act on and audit.
 *
 * @param id stable identifier, unique among all findings
 * @param resolvedAt null while the finding is open
 * @param occurrences how many evaluations reported the condition while the finding was open
 */
public record Finding(
    String id,
    String kind,
    NodeId node,
    int gpu,
    Severity severity,
    FindingState state,
    Instant firstSeen,
    Instant lastSeen,
    Instant resolvedAt,
    String summary,
    Map<String, String> evidence,
    String recommendedAction,
    double performanceFactor,
    long occurrences) {

  public Finding {
    Objects.requireNonNull(id, "id");
    if (!FindingKind.isValid(kind)) {
      throw new IllegalArgumentException("not a valid finding kind: " + kind);
    }
    Objects.requireNonNull(node, "node");
    Objects.requireNonNull(severity, "severity");
    Objects.requireNonNull(state, "state");
    Objects.requireNonNull(firstSeen, "firstSeen");
    Objects.requireNonNull(lastSeen, "lastSeen");
    Objects.requireNonNull(summary, "summary");
    evidence = Map.copyOf(evidence);
    recommendedAction = Objects.requireNonNullElse(recommendedAction, "");
    if (state == FindingState.RESOLVED && resolvedAt == null) {
      throw new IllegalArgumentException("a resolved finding needs resolvedAt");
    }
  }

  /** Returns the key that identifies the same problem over time: kind, node and GPU. */
  public String key() {
    return keyOf(kind, node, gpu);
  }

  /**
   * Returns this finding resolved at {@code at}: the same problem, no longer holding.
   *
   * @since 1.1
   */
  public Finding resolve(Instant at) {
    return new Finding(
        id,
        kind,
        node,
        gpu,
        severity,
        FindingState.RESOLVED,
        firstSeen,
        lastSeen,
        at,
        summary,
        evidence,
        recommendedAction,
        performanceFactor,
        occurrences);
  }

  /** Returns true while the finding holds. */
  public boolean isOpen() {
    return state == FindingState.OPEN;
  }

  static String keyOf(String kind, NodeId node, int gpu) {
    return kind + "/" + node.value() + "/" + gpu;
  }
}
