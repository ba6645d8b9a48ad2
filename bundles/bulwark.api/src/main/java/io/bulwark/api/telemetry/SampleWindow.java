package io.bulwark.api.telemetry;

import java.util.Arrays;

/**
 * A read-only copy of the recent samples of one series, oldest first, held as primitive arrays.
 * Returned by {@link TelemetryQuery#window}; safe to keep and to share between threads.
 */
public final class SampleWindow {
  private static final SampleWindow EMPTY = new SampleWindow(new long[0], new double[0], 0);

  private final long[] timestamps;
  private final double[] values;
  private final int size;

  private SampleWindow(long[] timestamps, double[] values, int size) {
    this.timestamps = timestamps;
    this.values = values;
    this.size = size;
  }

  /**
   * Returns a window over the first {@code size} entries of the arrays, which the caller hands over
   * and must not change afterwards.
   *
   * @throws IllegalArgumentException if the arrays are shorter than {@code size}
   */
  public static SampleWindow wrap(long[] timestamps, double[] values, int size) {
    if (size < 0 || timestamps.length < size || values.length < size) {
      throw new IllegalArgumentException(
          "window of "
              + size
              + " samples over arrays of "
              + timestamps.length
              + " and "
              + values.length);
    }
    return size == 0 ? EMPTY : new SampleWindow(timestamps, values, size);
  }

  /** Returns the empty window. */
  public static SampleWindow empty() {
    return EMPTY;
  }

  public int size() {
    return size;
  }

  public boolean isEmpty() {
    return size == 0;
  }

  /** Returns the timestamp (epoch milliseconds) of sample {@code i}, 0 being the oldest. */
  public long timestamp(int i) {
    checkIndex(i);
    return timestamps[i];
  }

  /** Returns the value of sample {@code i}, 0 being the oldest. */
  public double value(int i) {
    checkIndex(i);
    return values[i];
  }

  /** Returns the newest value, or {@code Double.NaN} if the window is empty. */
  public double latestValue() {
    return size == 0 ? Double.NaN : values[size - 1];
  }

  /** Returns the newest timestamp, or 0 if the window is empty. */
  public long latestTimestamp() {
    return size == 0 ? 0 : timestamps[size - 1];
  }

  /** Returns a copy of the values, oldest first. */
  public double[] values() {
    return Arrays.copyOf(values, size);
  }

  /** Returns a copy of the timestamps, oldest first. */
  public long[] timestamps() {
    return Arrays.copyOf(timestamps, size);
  }

  /** Returns the mean of the values, or {@code Double.NaN} if the window is empty. */
  public double mean() {
    if (size == 0) {
      return Double.NaN;
    }
    double sum = 0;
    for (int i = 0; i < size; i++) {
      sum += values[i];
    }
    return sum / size;
  }

  /** Returns the median of the values, or {@code Double.NaN} if the window is empty. */
  public double median() {
    if (size == 0) {
      return Double.NaN;
    }
    double[] sorted = values();
    Arrays.sort(sorted);
    return size % 2 == 1 ? sorted[size / 2] : (sorted[size / 2 - 1] + sorted[size / 2]) / 2;
  }

  private void checkIndex(int i) {
    if (i < 0 || i >= size) {
      throw new IndexOutOfBoundsException("sample " + i + " of " + size);
    }
  }

  @Override
  public String toString() {
    return "SampleWindow[" + size + " samples]";
  }
}
