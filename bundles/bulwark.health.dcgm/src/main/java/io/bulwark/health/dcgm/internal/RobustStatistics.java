package io.bulwark.health.dcgm.internal;

import io.bulwark.api.telemetry.SampleWindow;
import java.util.Arrays;

/**
 * Median, mean and median absolute deviation over the finite values of a series, so that one
 * malformed sample (NaN, infinity) cannot skew a detector. Used by the throttle and straggler
 * detectors.
 */
final class RobustStatistics {
  /** Scales a median absolute deviation to the standard deviation of a normal distribution. */
  static final double MAD_TO_SIGMA = 1.4826;

  private RobustStatistics() {}

  /** Returns the finite values of the window, oldest first. */
  static double[] finite(SampleWindow window) {
    return Arrays.stream(window.values()).filter(Double::isFinite).toArray();
  }

  /** Returns the median, or NaN for no values. */
  static double median(double[] values) {
    if (values.length == 0) {
      return Double.NaN;
    }
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    int n = sorted.length;
    return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  }

  /** Returns the mean, or NaN for no values. */
  static double mean(double[] values) {
    return values.length == 0 ? Double.NaN : Arrays.stream(values).average().orElse(Double.NaN);
  }

  /** Returns the largest value, or NaN for no values. */
  static double max(double[] values) {
    return values.length == 0 ? Double.NaN : Arrays.stream(values).max().orElse(Double.NaN);
  }

  /** Returns the median absolute deviation from {@code median}, scaled to a standard deviation. */
  static double robustDeviation(double[] values, double median) {
    double[] deviations = Arrays.stream(values).map(v -> Math.abs(v - median)).toArray();
    return median(deviations) * MAD_TO_SIGMA;
  }
}
