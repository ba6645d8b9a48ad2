package io.bulwark.telemetry.internal;

import io.bulwark.api.telemetry.MinuteRollup;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * The minute roll-ups of one series: the minute being filled (min, max, sum and count in primitive
 * fields) and a ring of the last {@code capacity} closed minutes in one {@code float} array, four
 * floats a minute (min, avg, max, count: 16 bytes, one cache line for four minutes), indexed by
 * minute number modulo the capacity. Adding a sample allocates nothing. A minute closes when a
 * sample of a later minute arrives, or when the rollup archive closes it by the clock; a sample for
 * a minute already closed is counted as late and left out. Not thread-safe: its {@link SeriesRing}
 * calls it under its own lock.
 */
final class MinuteRollups {
  static final long MINUTE_MILLIS = 60_000;
  static final int MAX_COUNT = Character.MAX_VALUE;
  static final int RECORD_BYTES = 14;
  private static final long NONE = Long.MIN_VALUE;

  private final int capacity;
  private final float[] minutes;
  private long openMinute = NONE;
  private long openFromMillis = Long.MAX_VALUE;
  private long openToMillis = Long.MIN_VALUE;
  private double openMin;
  private double openMax;
  private double openSum;
  private int openCount;
  private long newestClosed = NONE;
  private long late;

  /**
   * Set and read only by the roll-up archive's writer thread: the file the series was last named
   * in.
   */
  int fileGeneration;

  MinuteRollups(int capacity) {
    if (capacity < 1) {
      throw new IllegalArgumentException("roll-ups need room for at least one minute");
    }
    this.capacity = capacity;
    minutes = new float[capacity * 4];
  }

  static long minuteOf(long millis) {
    return Math.floorDiv(millis, MINUTE_MILLIS);
  }

  /** Adds a sample newer than every sample added before; NaN values are left out. */
  void add(long millis, double value) {
    if (Double.isNaN(value)) {
      return;
    }
    if (millis >= openFromMillis && millis < openToMillis) {
      // The minute being filled, told without a division: the common case by far.
      if (value < openMin) {
        openMin = value;
      }
      if (value > openMax) {
        openMax = value;
      }
      openSum += value;
      openCount++;
      return;
    }
    // Another minute than the one being filled (whose bounds the test above covers).
    long minute = minuteOf(millis);
    if (openMinute != NONE && minute > openMinute) {
      close();
    }
    if (newestClosed != NONE && minute <= newestClosed) {
      late++;
      return;
    }
    openMinute = minute;
    openFromMillis = minute * MINUTE_MILLIS;
    openToMillis = openFromMillis + MINUTE_MILLIS;
    openMin = value;
    openMax = value;
    openSum = value;
    openCount = 1;
  }

  /** Closes the minute being filled if it is older than {@code minute}. */
  void closeBefore(long minute) {
    if (openMinute != NONE && openMinute < minute) {
      close();
    }
  }

  /**
   * Puts a closed minute read back from a file; ignored if it is not older than the minute being
   * filled or too old for the ring. A minute already held is replaced.
   */
  void restore(long minute, float min, float avg, float max, int count) {
    if (count <= 0 || (openMinute != NONE && minute >= openMinute)) {
      return;
    }
    if (newestClosed == NONE || minute > newestClosed) {
      advanceTo(minute);
    } else if (minute <= newest() - capacity) {
      return;
    }
    store(minute, min, avg, max, count);
  }

  /**
   * Writes the record of {@code minute} (min, avg, max as floats, count as an unsigned short; all
   * zero if the minute holds nothing) into {@code out}.
   */
  void writeRecord(long minute, ByteBuffer out) {
    if (!holds(minute)) {
      out.putFloat(0).putFloat(0).putFloat(0).putChar((char) 0);
      return;
    }
    int slot = slot(minute);
    out.putFloat(minutes[slot]).putFloat(minutes[slot + 1]).putFloat(minutes[slot + 2]);
    out.putChar((char) minutes[slot + 3]);
  }

  /** Returns the closed minutes that start at or after {@code fromMillis}, oldest first. */
  List<MinuteRollup> points(long fromMillis) {
    if (newestClosed == NONE) {
      return List.of();
    }
    long first = newest() - capacity + 1;
    if (fromMillis > first * MINUTE_MILLIS) {
      first = Math.floorDiv(fromMillis - 1, MINUTE_MILLIS) + 1;
    }
    List<MinuteRollup> points = new ArrayList<>((int) Math.max(0, newestClosed - first + 1));
    for (long minute = first; minute <= newestClosed; minute++) {
      int slot = slot(minute);
      if (minutes[slot + 3] > 0) {
        points.add(
            new MinuteRollup(
                minute * MINUTE_MILLIS,
                minutes[slot],
                minutes[slot + 1],
                minutes[slot + 2],
                (int) minutes[slot + 3]));
      }
    }
    return points;
  }

  /** Returns how many samples arrived for minutes already closed, and were left out. */
  long late() {
    return late;
  }

  int capacity() {
    return capacity;
  }

  private boolean holds(long minute) {
    return newestClosed != NONE
        && minute <= newestClosed
        && minute > newest() - capacity
        && minutes[slot(minute) + 3] > 0;
  }

  /** Returns the newest minute seen, closed or being filled; the window ends with it. */
  private long newest() {
    return openMinute != NONE ? openMinute : newestClosed;
  }

  private void close() {
    advanceTo(openMinute);
    store(openMinute, (float) openMin, (float) (openSum / openCount), (float) openMax, openCount);
    openMinute = NONE;
    openFromMillis = Long.MAX_VALUE;
    openToMillis = Long.MIN_VALUE;
  }

  /** Makes {@code minute} the newest closed one, emptying the minutes skipped on the way. */
  private void advanceTo(long minute) {
    if (newestClosed != NONE) {
      long skipped = Math.min(minute - newestClosed - 1, capacity);
      for (long m = minute - skipped; m < minute; m++) {
        minutes[slot(m) + 3] = 0;
      }
    }
    newestClosed = minute;
  }

  private void store(long minute, float min, float avg, float max, int count) {
    int slot = slot(minute);
    minutes[slot] = min;
    minutes[slot + 1] = avg;
    minutes[slot + 2] = max;
    minutes[slot + 3] = Math.min(count, MAX_COUNT);
  }

  private int slot(long minute) {
    return 4 * (int) Math.floorMod(minute, (long) capacity);
  }
}
