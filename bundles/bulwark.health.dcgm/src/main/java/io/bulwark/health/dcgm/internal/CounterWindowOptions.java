package io.bulwark.health.dcgm.internal;

/**
 * The validated, immutable settings of a detector that judges the rate of a cumulative counter: the
 * window the rise is measured over, the shortest span that makes a rate meaningful, and the rate
 * that raises a condition. Used by the SBE-rate, NVLink-error and PCIe-replay detectors.
 *
 * @param windowSeconds the window the rise is measured over
 * @param minSpanSeconds the fewest seconds between first and last sample to judge at all
 * @param threshold the rate (in the detector's unit) at or above which the condition holds
 * @param thresholdProperty the configuration property that sets the threshold, for messages
 */
record CounterWindowOptions(
    int windowSeconds, int minSpanSeconds, double threshold, String thresholdProperty) {

  /**
   * @throws IllegalArgumentException naming the property whose value is out of range
   */
  CounterWindowOptions {
    if (windowSeconds < 2 || windowSeconds > 86_400) {
      throw new IllegalArgumentException(
          "windowSeconds must be between 2 and 86400, was " + windowSeconds);
    }
    if (minSpanSeconds < 1 || minSpanSeconds >= windowSeconds) {
      throw new IllegalArgumentException(
          "minSpanSeconds must be at least 1 and below windowSeconds ("
              + windowSeconds
              + "), was "
              + minSpanSeconds);
    }
    if (!(threshold > 0 && threshold < 1e12)) {
      throw new IllegalArgumentException(thresholdProperty + " must be above 0, was " + threshold);
    }
  }

  /** Returns the start of the window that ends at {@code nowMillis}. */
  long from(long nowMillis) {
    return WindowOptions.windowStart(nowMillis, windowSeconds);
  }
}
