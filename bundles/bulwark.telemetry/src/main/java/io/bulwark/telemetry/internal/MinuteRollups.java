package io.bulwark.telemetry.internal;

import io.bulwark.api.telemetry.MinuteRollup;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * The closed minute roll-ups of one series: a ring of the last {@code capacity} closed minutes in
 * one {@code float} array, four floats a minute (min, avg, max, count: 16 bytes, one cache line for
 * four minutes), indexed by minute number modulo the capacity. The minute being filled is kept by
 * its {@link SeriesRing}, in the ring's own fields, so that an appended sample touches no object
 * here; the ring closes it into this store when a sample of a later minute arrives, or when the
 * rollup archive closes it by the clock. Methods that reason about the newest minute take the
 * ring's open minute ({@link #NONE} if none). A sample for a minute already closed is counted as
 * late and left out. Not thread-safe: its {@link SeriesRing} calls it under its own lock.
 */
final class MinuteRollups {
  static final long MINUTE_MILLIS = 60_000;
  static final int MAX_COUNT = Character.MAX_VALUE;
  static final int RECORD_BYTES = 14;

  /** No minute. */
  static final long NONE = Long.MIN_VALUE;

  private final int capacity;
  private final float[] minutes;
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

  /** Returns true if {@code minute} is closed already: a sample for it is late (and counted so). */
  boolean lateFor(long minute) {
    if (newestClosed != NONE && minute <= newestClosed) {
      late++;
      return true;
    }
    return false;
  }

  /** Closes {@code minute} with its figures; it becomes the newest closed minute. */
  void close(long minute, double min, double sum, double max, int count) {
    advanceTo(minute);
    store(minute, (float) min, (float) (sum / count), (float) max, count);
  }

  /**
   * Puts a closed minute read back from a file; ignored if it is not older than the minute being
   * filled ({@code openMinute}) or too old for the ring. A minute already held is replaced.
   */
  void restore(long minute, float min, float avg, float max, int count, long openMinute) {
    if (count <= 0 || (openMinute != NONE && minute >= openMinute)) {
      return;
    }
    if (newestClosed == NONE || minute > newestClosed) {
      advanceTo(minute);
    } else if (minute <= newest(openMinute) - capacity) {
      return;
    }
    store(minute, min, avg, max, count);
  }

  /**
   * Writes the record of {@code minute} (min, avg, max as floats, count as an unsigned short; all
   * zero if the minute holds nothing) into {@code out}.
   */
  void writeRecord(long minute, ByteBuffer out, long openMinute) {
    if (!holds(minute, openMinute)) {
      out.putFloat(0).putFloat(0).putFloat(0).putChar((char) 0);
      return;
    }
    int slot = slot(minute);
    out.putFloat(minutes[slot]).putFloat(minutes[slot + 1]).putFloat(minutes[slot + 2]);
    out.putChar((char) minutes[slot + 3]);
  }

  /** Returns the closed minutes that start at or after {@code fromMillis}, oldest first. */
  List<MinuteRollup> points(long fromMillis, long openMinute) {
    if (newestClosed == NONE) {
      return List.of();
    }
    long first = newest(openMinute) - capacity + 1;
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

  private boolean holds(long minute, long openMinute) {
    return newestClosed != NONE
        && minute <= newestClosed
        && minute > newest(openMinute) - capacity
        && minutes[slot(minute) + 3] > 0;
  }

  /** Returns the newest minute seen, closed or being filled; the window ends with it. */
  private long newest(long openMinute) {
    return openMinute != NONE ? openMinute : newestClosed;
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
