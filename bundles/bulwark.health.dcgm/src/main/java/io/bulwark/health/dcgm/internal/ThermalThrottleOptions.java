package io.bulwark.health.dcgm.internal;

/**
 * The validated, immutable form of {@link ThermalThrottleDetectorConfig}. Used by the thermal
 * throttle detector.
 *
 * @param throttle the settings shared with the power throttle detector
 * @param hotTemperatureCelsius the median GPU temperature from which HW_SLOWDOWN counts as thermal
 */
record ThermalThrottleOptions(ThrottleOptions throttle, double hotTemperatureCelsius) {

  /**
   * @throws IllegalArgumentException naming the property whose value is out of range
   */
  ThermalThrottleOptions {
    if (!(hotTemperatureCelsius >= 30 && hotTemperatureCelsius <= 150)) {
      throw new IllegalArgumentException(
          "hotTemperatureCelsius must be between 30 and 150, was " + hotTemperatureCelsius);
    }
  }

  /** Converts the configuration once. */
  static ThermalThrottleOptions from(ThermalThrottleDetectorConfig c) {
    return new ThermalThrottleOptions(
        new ThrottleOptions(
            c.windowSeconds(),
            c.sustainedFraction(),
            c.minSeconds(),
            c.busyUtilPercent(),
            c.referenceWindowSeconds()),
        c.hotTemperatureCelsius());
  }

  /** Returns the default options. */
  static ThermalThrottleOptions defaults() {
    return new ThermalThrottleOptions(ThrottleOptions.defaults(), 85);
  }
}
