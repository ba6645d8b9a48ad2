package io.bulwark.health.dcgm.internal;

import java.util.Arrays;

/**
 * The peer median and spread of each second of one group's metric, remembered from one evaluation
 * to the next. The straggler test compares every GPU with its peers' median in every second of a
 * two-minute window, at every evaluation: all but the newest seconds were worked out the evaluation
 * before. A second is taken from here only if its values are the very same as then (a 64-bit
 * fingerprint of every value and its row, and their number), so the verdict is exactly the one a
 * fresh computation gives; a second whose samples changed (one arrived late) is worked out again.
 * Held per group and metric by the straggler detector; not thread-safe (one evaluation at a time).
 */
final class PeerColumns {
  private final long[] seconds;
  private final long[] fingerprints;
  private final double[] medians;
  private final double[] spreads;
  private final int mask;

  /** Room for at least {@code columns} seconds. */
  PeerColumns(int columns) {
    int size = Integer.highestOneBit(Math.max(16, columns) * 2 - 1);
    seconds = new long[size];
    Arrays.fill(seconds, Long.MIN_VALUE);
    fingerprints = new long[size];
    medians = new double[size];
    spreads = new double[size];
    this.mask = size - 1;
  }

  /** Returns true if this can hold a window of {@code columns} seconds. */
  boolean fits(int columns) {
    return seconds.length >= columns;
  }

  /** Returns the fingerprint of the values {@code present[0..count)} taken from {@code rows}. */
  static long fingerprint(double[] present, int[] rows, int count) {
    long h = 0x9E3779B97F4A7C15L ^ count;
    for (int i = 0; i < count; i++) {
      h = (h ^ Double.doubleToRawLongBits(present[i])) * 0xBF58476D1CE4E5B9L;
      h = (h ^ rows[i]) * 0x94D049BB133111EBL;
      h ^= h >>> 31;
    }
    return h;
  }

  /** Returns the slot remembering {@code second} with {@code fingerprint}, or -1. */
  int find(long second, long fingerprint) {
    int slot = (int) second & mask;
    return seconds[slot] == second && fingerprints[slot] == fingerprint ? slot : -1;
  }

  double median(int slot) {
    return medians[slot];
  }

  double spread(int slot) {
    return spreads[slot];
  }

  /** Remembers the median and spread of {@code second}'s values. */
  void remember(long second, long fingerprint, double median, double spread) {
    int slot = (int) second & mask;
    seconds[slot] = second;
    fingerprints[slot] = fingerprint;
    medians[slot] = median;
    spreads[slot] = spread;
  }
}
