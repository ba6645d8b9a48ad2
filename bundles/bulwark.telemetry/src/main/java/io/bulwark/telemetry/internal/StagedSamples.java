package io.bulwark.telemetry.internal;

import java.util.Arrays;

/**
 * The samples of one page as it is read, written to their series only when the page is done ({@link
 * #commit}), so that a page refused part-way leaves nothing behind ({@link #clear}). Reused page
 * after page: a steady target allocates nothing here. Not thread-safe: one per filer.
 */
final class StagedSamples {
  private SeriesRing[] rings = new SeriesRing[256];
  private long[] times = new long[256];
  private double[] values = new double[256];
  private int size;
  private int outOfOrder;

  /** Stages {@code value} at {@code timestamp} for {@code ring}. */
  void add(SeriesRing ring, long timestamp, double value) {
    if (size == rings.length) {
      int grown = size * 2;
      rings = Arrays.copyOf(rings, grown);
      times = Arrays.copyOf(times, grown);
      values = Arrays.copyOf(values, grown);
    }
    rings[size] = ring;
    times[size] = timestamp;
    values[size] = value;
    size++;
  }

  /**
   * Appends every staged sample to its series and empties the stage; returns how many were filed
   * ({@link #outOfOrder()} the others: not newer than what their series holds).
   */
  int commit() {
    int filed = 0;
    outOfOrder = 0;
    for (int i = 0; i < size; i++) {
      if (rings[i].append(times[i], values[i])) {
        filed++;
      } else {
        outOfOrder++;
      }
      rings[i] = null;
    }
    size = 0;
    return filed;
  }

  /** Returns how many samples the last {@link #commit} dropped as not newer than their series. */
  int outOfOrder() {
    return outOfOrder;
  }

  /** Drops every staged sample. */
  void clear() {
    Arrays.fill(rings, 0, size, null);
    size = 0;
  }
}
