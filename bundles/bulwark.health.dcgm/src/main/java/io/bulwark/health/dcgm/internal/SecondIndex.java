package io.bulwark.health.dcgm.internal;

import io.bulwark.api.telemetry.SampleWindow;
import java.util.Arrays;

/**
 * The seconds a group of sample windows covers, each given a column: every second from the earliest
 * to the latest when that span is short (the usual case: samples every second or so), else only the
 * seconds that hold a sample, in order (an exporter whose clock is far off). Either way the columns
 * are the seconds in time order, and a second without any sample has no effect on the statistics
 * computed over them. Used by the straggler detector.
 */
final class SecondIndex {
  private final long first;
  private final long[] sparse;
  private final int size;

  private SecondIndex(long first, long[] sparse, int size) {
    this.first = first;
    this.sparse = sparse;
    this.size = size;
  }

  /**
   * Indexes the seconds of every sample of {@code windows}; {@code denseLimit} bounds a dense span.
   */
  static SecondIndex of(Iterable<SampleWindow[]> windows, int denseLimit) {
    long min = Long.MAX_VALUE;
    long max = Long.MIN_VALUE;
    int samples = 0;
    for (SampleWindow[] group : windows) {
      for (SampleWindow w : group) {
        if (!w.isEmpty()) {
          min = Math.min(min, second(w.timestamp(0)));
          max = Math.max(max, second(w.timestamp(w.size() - 1)));
          samples += w.size();
        }
      }
    }
    if (samples == 0) {
      return new SecondIndex(0, null, 0);
    }
    if (max - min < denseLimit) {
      return new SecondIndex(min, null, (int) (max - min + 1));
    }
    long[] all = new long[samples];
    int n = 0;
    for (SampleWindow[] group : windows) {
      for (SampleWindow w : group) {
        for (int i = 0; i < w.size(); i++) {
          all[n++] = second(w.timestamp(i));
        }
      }
    }
    Arrays.sort(all);
    int unique = 0;
    for (int i = 0; i < n; i++) {
      if (unique == 0 || all[i] != all[unique - 1]) {
        all[unique++] = all[i];
      }
    }
    return new SecondIndex(0, all, unique);
  }

  /** Returns the epoch second of {@code millis}. */
  static long second(long millis) {
    return Math.floorDiv(millis, 1000L);
  }

  /** Returns how many columns there are. */
  int size() {
    return size;
  }

  /** Returns the column of epoch second {@code second}, or -1 if it has none. */
  int indexOf(long second) {
    if (sparse == null) {
      long i = second - first;
      return i >= 0 && i < size ? (int) i : -1;
    }
    int i = Arrays.binarySearch(sparse, 0, size, second);
    return i >= 0 ? i : -1;
  }

  /** Returns the epoch second of column {@code index}. */
  long secondAt(int index) {
    return sparse == null ? first + index : sparse[index];
  }
}
