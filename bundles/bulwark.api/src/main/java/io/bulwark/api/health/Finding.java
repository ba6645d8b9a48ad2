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
 * @param gpuUuid the UUID of the GPU as the inventory knows it; empty for node findings or when
 *     telemetry has not reported it (since 1.2)
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
    long occurrences,
    String gpuUuid) {

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
    gpuUuid = Objects.requireNonNullElse(gpuUuid, "");
    if (state == FindingState.RESOLVED && resolvedAt == null) {
      throw new IllegalArgumentException("a resolved finding needs resolvedAt");
    }
  }

  /** A finding without the GPU's UUID, as version 1.1 of this API made them. */
  public Finding(
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
    this(
        id,
        kind,
        node,
        gpu,
        severity,
        state,
        firstSeen,
        lastSeen,
        resolvedAt,
        summary,
        evidence,
        recommendedAction,
        performanceFactor,
        occurrences,
        "");
  }

  /**
   * Returns the estimated share of this GPU's capacity lost while the finding holds, in [0, 1]: all
   * of it for a critical finding (the GPU does not serve), {@code 1 - performanceFactor} otherwise.
   *
   * @since 1.2
   */
  public double capacityLoss() {
    if (severity == Severity.CRITICAL) {
      return 1.0;
    }
    return Math.max(0, Math.min(1, 1 - performanceFactor));
  }

  /**
   * Returns this finding with the GPU's UUID set.
   *
   * @since 1.2
   */
  public Finding withGpuUuid(String uuid) {
    return new Finding(
        id,
        kind,
        node,
        gpu,
        severity,
        state,
        firstSeen,
        lastSeen,
        resolvedAt,
        summary,
        evidence,
        recommendedAction,
        performanceFactor,
        occurrences,
        uuid);
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
        occurrences,
        gpuUuid);
  }

  /** Returns true while the finding holds. */
  public boolean isOpen() {
    return state == FindingState.OPEN;
  }

  static String keyOf(String kind, NodeId node, int gpu) {
    return kind + "/" + node.value() + "/" + gpu;
  }
}
