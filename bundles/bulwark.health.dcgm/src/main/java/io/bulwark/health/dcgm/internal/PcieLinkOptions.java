package io.bulwark.health.dcgm.internal;

/**
 * The validated, immutable form of {@link PcieLinkDetectorConfig}. Used by the PCIe link detector.
 *
 * @param windowSeconds the window the link is judged over
 * @param sustainedFraction the share of samples that must show the lower link
 * @param minSeconds the fewest seconds the samples must cover to judge
 * @param busyUtilPercent the median utilisation from which a GPU counts as busy
 */
record PcieLinkOptions(
    int windowSeconds, double sustainedFraction, int minSeconds, double busyUtilPercent) {

  /**
   * @throws IllegalArgumentException naming the property whose value is out of range
   */
  PcieLinkOptions {
    new WindowOptions(windowSeconds);
    if (!(sustainedFraction > 0 && sustainedFraction <= 1)) {
      throw new IllegalArgumentException(
          "sustainedFraction must be in (0, 1], was " + sustainedFraction);
    }
    if (minSeconds < 1) {
      throw new IllegalArgumentException("minSeconds must be at least 1, was " + minSeconds);
    }
    if (!(busyUtilPercent >= 0 && busyUtilPercent <= 100)) {
      throw new IllegalArgumentException(
          "busyUtilPercent must be between 0 and 100, was " + busyUtilPercent);
    }
  }

  static PcieLinkOptions from(PcieLinkDetectorConfig c) {
    return new PcieLinkOptions(
        c.windowSeconds(), c.sustainedFraction(), c.minSeconds(), c.busyUtilPercent());
  }

  static PcieLinkOptions defaults() {
    return new PcieLinkOptions(30, 0.8, 5, 50);
  }
}
