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
    int size = window.size();
    double[] values = new double[size];
    int n = 0;
    for (int i = 0; i < size; i++) {
      double v = window.value(i);
      if (Double.isFinite(v)) {
        values[n++] = v;
      }
    }
    return n == size ? values : Arrays.copyOf(values, n);
  }

  /** Returns the median, or NaN for no values. */
  static double median(double[] values) {
    return values.length == 0 ? Double.NaN : medianInPlace(values.clone(), values.length);
  }

  /**
   * Returns the median of the first {@code count} values of {@code values}, sorting them in place,
   * or NaN for none.
   */
  static double medianInPlace(double[] values, int count) {
    if (count == 0) {
      return Double.NaN;
    }
    sort(values, count);
    return count % 2 == 1 ? values[count / 2] : (values[count / 2 - 1] + values[count / 2]) / 2;
  }

  /** Below this many values an insertion sort beats the library's sort and its NaN passes. */
  private static final int SMALL = 32;

  /**
   * Sorts the first {@code count} values ascending. The detectors take medians of a GPU's peers
   * every second of a window, tens of thousands of times an evaluation, mostly of eight values: an
   * insertion sort of so few does without the general sort's set-up. NaN sorts last either way.
   */
  static void sort(double[] values, int count) {
    if (count > SMALL) {
      Arrays.sort(values, 0, count);
      return;
    }
    for (int i = 1; i < count; i++) {
      double v = values[i];
      int j = i - 1;
      while (j >= 0 && (values[j] > v || (Double.isNaN(values[j]) && !Double.isNaN(v)))) {
        values[j + 1] = values[j];
        j--;
      }
      values[j + 1] = v;
    }
  }

  /** Returns the mean, or NaN for no values. */
  static double mean(double[] values) {
    return values.length == 0 ? Double.NaN : Arrays.stream(values).average().orElse(Double.NaN);
  }

  /** Returns the largest value, or NaN for no values. */
  static double max(double[] values) {
    if (values.length == 0) {
      return Double.NaN;
    }
    double max = Double.NEGATIVE_INFINITY;
    for (double v : values) {
      max = Math.max(max, v);
    }
    return max;
  }

  /** Returns the median absolute deviation from {@code median}, scaled to a standard deviation. */
  static double robustDeviation(double[] values, double median) {
    double[] deviations = new double[values.length];
    for (int i = 0; i < values.length; i++) {
      deviations[i] = Math.abs(values[i] - median);
    }
    return values.length == 0
        ? Double.NaN
        : medianInPlace(deviations, deviations.length) * MAD_TO_SIGMA;
  }
}
