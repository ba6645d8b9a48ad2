package io.bulwark.health.dcgm.internal;

import java.util.Arrays;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The validated, immutable form of {@link XidDetectorConfig}. Used by the XID detector.
 *
 * @param holdSeconds how long a seen XID holds
 * @param hardwareXids codes treated as needing a GPU reset, whatever the catalogue's bucket
 * @param applicationXids codes that point at the application; a code in both sets is a hardware
 *     code
 * @param recordApplicationXids whether application XIDs become informational conditions
 */
record XidOptions(
    int holdSeconds,
    Set<Integer> hardwareXids,
    Set<Integer> applicationXids,
    boolean recordApplicationXids) {

  /**
   * @throws IllegalArgumentException naming the property whose value is out of range
   */
  XidOptions {
    if (holdSeconds < 1 || holdSeconds > 3600) {
      throw new IllegalArgumentException(
          "holdSeconds must be between 1 and 3600, was " + holdSeconds);
    }
    hardwareXids = Set.copyOf(hardwareXids);
    applicationXids = Set.copyOf(applicationXids);
    requirePositive("additionalHardwareXids", hardwareXids);
    requirePositive("applicationXids", applicationXids);
  }

  /** Converts the configuration once. */
  static XidOptions from(XidDetectorConfig config) {
    return new XidOptions(
        config.holdSeconds(),
        boxed(config.additionalHardwareXids()),
        boxed(config.applicationXids()),
        config.recordApplicationXids());
  }

  /** Returns the default options. */
  static XidOptions defaults() {
    return new XidOptions(30, Set.of(), boxed(XidCatalog.APPLICATION_DEFAULTS), false);
  }

  /** Returns what {@code code} asks of the operator. */
  XidResolution resolve(int code) {
    if (hardwareXids.contains(code)) {
      return XidResolution.RESET_GPU;
    }
    if (applicationXids.contains(code)) {
      return XidResolution.APPLICATION;
    }
    return XidCatalog.resolution(code);
  }

  private static Set<Integer> boxed(int[] codes) {
    return codes == null ? Set.of() : Arrays.stream(codes).boxed().collect(Collectors.toSet());
  }

  private static void requirePositive(String property, Set<Integer> codes) {
    for (int c : codes) {
      if (c <= 0) {
        throw new IllegalArgumentException(property + " must hold positive XID codes, found " + c);
      }
    }
  }
}
