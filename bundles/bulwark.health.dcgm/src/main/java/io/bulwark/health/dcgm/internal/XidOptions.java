package io.bulwark.health.dcgm.internal;

import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The validated, immutable form of {@link XidDetectorConfig}. Used by the XID detector.
 *
 * @param holdSeconds how long a seen XID holds
 * @param hardwareXids codes that mean the GPU is bad
 * @param applicationXids codes that point at the application; a code in both sets is a hardware
 *     code
 */
record XidOptions(int holdSeconds, Set<Integer> hardwareXids, Set<Integer> applicationXids) {

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
    Set<Integer> hardware = new HashSet<>(XidCatalog.HARDWARE);
    hardware.addAll(boxed(config.additionalHardwareXids()));
    return new XidOptions(config.holdSeconds(), hardware, boxed(config.applicationXids()));
  }

  /** Returns the default options. */
  static XidOptions defaults() {
    return new XidOptions(30, XidCatalog.HARDWARE, Set.of(13, 31, 32, 43, 45, 68, 69));
  }

  /** Classifies an XID code. */
  XidClass classify(int code) {
    if (hardwareXids.contains(code)) {
      return XidClass.HARDWARE;
    }
    return applicationXids.contains(code) ? XidClass.APPLICATION : XidClass.UNKNOWN;
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
