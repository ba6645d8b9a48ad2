package io.bulwark.health.dcgm.internal;

/**
 * The validated, immutable form of {@link StragglerDetectorConfig}. Used by the straggler detector.
 *
 * @param windowSeconds the window each GPU is judged over
 * @param relativeDrop how far below the peer median a GPU must be, as a share of it
 * @param madMultiplier how many robust deviations below the peer median a GPU must also be
 * @param sustainedFraction the share of the GPU's samples that must lie below the threshold
 * @param minPeers the fewest other busy GPUs of the same model needed to judge
 * @param minSamples the fewest samples in the window to judge
 * @param busyUtilPercent the median utilisation from which a GPU counts as busy
 * @param compareSmActive whether SM activity is compared too
 */
record StragglerOptions(
    int windowSeconds,
    double relativeDrop,
    double madMultiplier,
    double sustainedFraction,
    int minPeers,
    int minSamples,
    double busyUtilPercent,
    boolean compareSmActive) {

  /**
   * @throws IllegalArgumentException naming the property whose value is out of range
   */
  StragglerOptions {
    if (windowSeconds < 1 || windowSeconds > 3600) {
      throw new IllegalArgumentException(
          "windowSeconds must be between 1 and 3600, was " + windowSeconds);
    }
    if (!(relativeDrop > 0 && relativeDrop < 1)) {
      throw new IllegalArgumentException("relativeDrop must be in (0, 1), was " + relativeDrop);
    }
    if (!(madMultiplier >= 0 && madMultiplier < 1000)) {
      throw new IllegalArgumentException(
          "madMultiplier must be between 0 and 1000, was " + madMultiplier);
    }
    if (!(sustainedFraction > 0 && sustainedFraction <= 1)) {
      throw new IllegalArgumentException(
          "sustainedFraction must be in (0, 1], was " + sustainedFraction);
    }
    if (minPeers < 2) {
      throw new IllegalArgumentException("minPeers must be at least 2, was " + minPeers);
    }
    if (minSamples < 1) {
      throw new IllegalArgumentException("minSamples must be at least 1, was " + minSamples);
    }
    if (!(busyUtilPercent >= 0 && busyUtilPercent <= 100)) {
      throw new IllegalArgumentException(
          "busyUtilPercent must be between 0 and 100, was " + busyUtilPercent);
    }
  }

  /** Converts the configuration once. */
  static StragglerOptions from(StragglerDetectorConfig c) {
    return new StragglerOptions(
        c.windowSeconds(),
        c.relativeDrop(),
        c.madMultiplier(),
        c.sustainedFraction(),
        c.minPeers(),
        c.minSamples(),
        c.busyUtilPercent(),
        c.compareSmActive());
  }

  /** Returns the default options. */
  static StragglerOptions defaults() {
    return new StragglerOptions(15, 0.15, 5, 0.8, 8, 5, 50, true);
  }
}
