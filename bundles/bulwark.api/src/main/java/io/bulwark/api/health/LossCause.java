package io.bulwark.api.health;

/**
 * Why GPU capacity was lost, as the capacity account books it: {@link #FAILURE} for a GPU that does
 * not serve (an open critical finding, or no telemetry), {@link #THROTTLE} for thermal or power
 * limits, {@link #STRAGGLER} for a GPU slower than its peers, {@link #DEGRADED} for any other
 * warning that costs performance (a downtrained PCIe link, NVLink errors), {@link #UNKNOWN} for a
 * GPU whose node does not report (its target down, never scraped, or silent): Bulwark cannot tell
 * whether it serves, so it is neither counted as delivering nor blamed on a failure.
 *
 * @since 1.2
 */
public enum LossCause {
  FAILURE,
  THROTTLE,
  STRAGGLER,
  DEGRADED,
  /**
   * The GPU's node does not report telemetry.
   *
   * @since 1.3
   */
  UNKNOWN;

  /** Returns the cause a finding of {@code kind} books its loss under when the GPU still serves. */
  public static LossCause ofServingKind(String kind) {
    return switch (kind) {
      case FindingKind.STRAGGLER -> STRAGGLER;
      case FindingKind.THERMAL_THROTTLE, FindingKind.POWER_THROTTLE, FindingKind.THERMAL_MARGIN ->
          THROTTLE;
      default -> DEGRADED;
    };
  }
}
