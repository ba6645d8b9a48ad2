package io.bulwark.health.dcgm.internal;

/**
 * The validated, immutable settings the thermal and power throttle detectors share.
 *
 * @param windowSeconds the window the clock-event bits are judged over
 * @param sustainedFraction the share of samples that must carry a throttle bit
 * @param minSeconds the fewest seconds of the window the samples must cover to judge at all
 * @param busyUtilPercent the median utilisation from which a GPU counts as busy
 * @param referenceWindowSeconds how far back the GPU's own peak SM clock is looked for
 */
record ThrottleOptions(
    int windowSeconds,
    double sustainedFraction,
    int minSeconds,
    double busyUtilPercent,
    int referenceWindowSeconds) {

  /**
   * @throws IllegalArgumentException naming the property whose value is out of range
   */
  ThrottleOptions {
    if (windowSeconds < 1 || windowSeconds > 3600) {
      throw new IllegalArgumentException(
          "windowSeconds must be between 1 and 3600, was " + windowSeconds);
    }
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
    if (referenceWindowSeconds < windowSeconds || referenceWindowSeconds > 86_400) {
      throw new IllegalArgumentException(
          "referenceWindowSeconds must be between windowSeconds ("
              + windowSeconds
              + ") and 86400, was "
              + referenceWindowSeconds);
    }
  }

  /** Returns the default options. */
  static ThrottleOptions defaults() {
    return new ThrottleOptions(10, 0.8, 5, 50, 300);
  }
}
