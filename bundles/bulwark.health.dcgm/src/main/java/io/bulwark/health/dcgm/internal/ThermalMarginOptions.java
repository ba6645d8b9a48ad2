package io.bulwark.health.dcgm.internal;

/**
 * The validated, immutable form of {@link ThermalMarginDetectorConfig}. Used by the thermal margin
 * detector.
 *
 * @param windowSeconds the window the temperature is judged over
 * @param minMarginCelsius the margin to the slowdown temperature below which it is too thin
 * @param peerGapCelsius how much hotter than its peers a busy GPU may run
 * @param minPeers the fewest other busy same-model GPUs on the node for the peer check
 * @param sustainedFraction the share of samples that must be below the margin
 * @param minSeconds the fewest seconds the samples must cover to judge
 * @param busyUtilPercent the median utilisation from which a GPU counts as busy
 */
record ThermalMarginOptions(
    int windowSeconds,
    double minMarginCelsius,
    double peerGapCelsius,
    int minPeers,
    double sustainedFraction,
    int minSeconds,
    double busyUtilPercent) {

  /**
   * @throws IllegalArgumentException naming the property whose value is out of range
   */
  ThermalMarginOptions {
    new WindowOptions(windowSeconds);
    if (!(minMarginCelsius >= 0 && minMarginCelsius <= 50)) {
      throw new IllegalArgumentException(
          "minMarginCelsius must be between 0 and 50, was " + minMarginCelsius);
    }
    if (!(peerGapCelsius > 0 && peerGapCelsius <= 100)) {
      throw new IllegalArgumentException(
          "peerGapCelsius must be above 0 and at most 100, was " + peerGapCelsius);
    }
    if (minPeers < 1) {
      throw new IllegalArgumentException("minPeers must be at least 1, was " + minPeers);
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
  }

  static ThermalMarginOptions from(ThermalMarginDetectorConfig c) {
    return new ThermalMarginOptions(
        c.windowSeconds(),
        c.minMarginCelsius(),
        c.peerGapCelsius(),
        c.minPeers(),
        c.sustainedFraction(),
        c.minSeconds(),
        c.busyUtilPercent());
  }

  static ThermalMarginOptions defaults() {
    return new ThermalMarginOptions(60, 5, 10, 2, 0.8, 10, 50);
  }
}
