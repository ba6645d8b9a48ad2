package io.bulwark.api.health;

import io.bulwark.api.fleet.NodeId;
import java.util.Objects;

/**
 * The capacity one GPU delivers: whether it is healthy (serving: no open critical finding,
 * reporting telemetry) and its performance relative to a sound GPU of the fleet, in [0, 1]. Every
 * GPU is exactly one of {@link #fullyHealthy}, {@link #degraded}, {@link #unknown} or failed (none
 * of these).
 *
 * @param limitedBy the kind of the finding that costs this GPU its capacity (the critical one, or
 *     the one with the lowest performance factor); {@code telemetry-stale} when its node stopped
 *     reporting; empty when it runs at full capacity (since 1.2)
 */
public record GpuCapacity(
    NodeId node, int gpu, boolean healthy, double relativePerformance, String limitedBy) {

  public GpuCapacity {
    limitedBy = Objects.requireNonNullElse(limitedBy, "");
  }

  /** A GPU capacity without the limiting finding, as version 1.1 of this API made them. */
  public GpuCapacity(NodeId node, int gpu, boolean healthy, double relativePerformance) {
    this(node, gpu, healthy, relativePerformance, "");
  }

  /**
   * Returns true for a GPU that serves but below its full performance.
   *
   * @since 1.2
   */
  public boolean degraded() {
    return healthy && relativePerformance < 1.0;
  }

  /**
   * Returns true for a GPU whose node does not report telemetry: whether it serves is not known.
   *
   * @since 1.3
   */
  public boolean unknown() {
    return !healthy && FindingKind.TELEMETRY_STALE.equals(limitedBy);
  }

  /**
   * Returns true for a GPU that serves at its full performance.
   *
   * @since 1.3
   */
  public boolean fullyHealthy() {
    return healthy && relativePerformance >= 1.0;
  }

  /**
   * Returns the one state of this GPU every view shows: {@code healthy}, {@code degraded}, {@code
   * failed} or {@code unknown}, as the account counts it.
   *
   * @since 1.6
   */
  public String state() {
    if (unknown()) {
      return "unknown";
    }
    if (!healthy) {
      return "failed";
    }
    return degraded() ? "degraded" : "healthy";
  }

  /**
   * Returns the cause this GPU's lost capacity is booked under, or null if it loses none.
   *
   * @since 1.2
   */
  public LossCause lossCause() {
    if (unknown()) {
      return LossCause.UNKNOWN;
    }
    if (!healthy) {
      return LossCause.FAILURE;
    }
    return relativePerformance < 1.0 ? LossCause.ofServingKind(limitedBy) : null;
  }
}
