package io.bulwark.telemetry.internal;

import io.bulwark.api.telemetry.MinuteRollup;
import io.bulwark.api.telemetry.Sample;
import io.bulwark.api.telemetry.SampleWindow;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The recent samples of one series in a fixed-size ring of primitive arrays: the newest sample
 * overwrites the oldest once the ring is full, and nothing is allocated per sample. Samples are
 * kept in time order: one that is not newer than the newest kept is refused. Timestamps are kept as
 * milliseconds after a base (4 bytes a sample instead of 8), so the samples of one ring span at
 * most {@link #MAX_SPAN_MILLIS} (24 days); a sample further from the oldest pushes out the samples
 * it cannot be kept with. One scrape writes while any number of readers take copies; every method
 * synchronises on the ring, and holds the lock only to copy a few arrays. It may also keep {@link
 * MinuteRollups} of the samples, updated as they are appended. The arrays start small and double as
 * the ring fills, up to its capacity: a fleet's hundreds of thousands of series are not all
 * allocated at full size at their first scrape, and a series that comes and goes stays small.
 */
final class SeriesRing {
  /** The longest time between the oldest and the newest sample of a ring. */
  static final long MAX_SPAN_MILLIS = Integer.MAX_VALUE;

  /**
   * A new ring has room for this many samples or up to twice as many (drawn at random) before it
   * first grows: rings created together then grow at different times, instead of all at once every
   * time they double.
   */
  static final int INITIAL_SAMPLES = 16;

  private final int capacity;
  private int[] offsets;
  private long baseMillis;
  private double[] values;
  private int next;
  private int size;
  private long newestMillis = Long.MIN_VALUE;
  private final MinuteRollups rollups;

  // The minute being filled, kept here rather than in the roll-ups so that an appended sample
  // touches this object and its two arrays only (a separate object costs one more cache miss per
  // sample, across hundreds of thousands of series).
  private long openMinute = MinuteRollups.NONE;
  private long openFromMillis = Long.MAX_VALUE;
  private long openToMillis = Long.MIN_VALUE;
  private double openMin;
  private double openMax;
  private double openSum;
  private int openCount;

  SeriesRing(int capacity) {
    this(capacity, 0);
  }

  /** Creates a ring of {@code capacity} samples that rolls up its last {@code rollupMinutes}. */
  SeriesRing(int capacity, int rollupMinutes) {
    if (capacity < 1) {
      throw new IllegalArgumentException(
          "a series needs room for at least one sample, not " + capacity);
    }
    rollups = rollupMinutes > 0 ? new MinuteRollups(rollupMinutes) : null;
    this.capacity = capacity;
    int initial = INITIAL_SAMPLES + ThreadLocalRandom.current().nextInt(INITIAL_SAMPLES);
    offsets = new int[Math.min(capacity, initial)];
    values = new double[offsets.length];
  }

  /**
   * Appends a sample; returns false (and keeps nothing) if it is not newer than the newest sample.
   */
  synchronized boolean append(long timestampMillis, double value) {
    if (timestampMillis <= newestMillis) {
      return false;
    }
    newestMillis = timestampMillis;
    if (size == 0) {
      baseMillis = timestampMillis;
    } else if (tooFarApart(timestampMillis, baseMillis)) {
      rebase(timestampMillis);
    }
    if (size == offsets.length && size < capacity) {
      grow();
    }
    offsets[next] = (int) (timestampMillis - baseMillis);
    values[next] = value;
    next = next + 1 == offsets.length ? 0 : next + 1;
    if (size < offsets.length) {
      size++;
    }
    if (rollups != null && !Double.isNaN(value)) {
      if (timestampMillis >= openFromMillis && timestampMillis < openToMillis) {
        // The minute being filled, told without a division: the common case by far.
        if (value < openMin) {
          openMin = value;
        }
        if (value > openMax) {
          openMax = value;
        }
        openSum += value;
        openCount++;
      } else {
        rollIntoMinute(timestampMillis, value);
      }
    }
    return true;
  }

  /**
   * Starts the minute of a sample outside the one being filled (always a later one: samples come in
   * time order), closing the one being filled; a sample of a minute closed already is late.
   */
  private void rollIntoMinute(long timestampMillis, double value) {
    long minute = MinuteRollups.minuteOf(timestampMillis);
    if (openMinute != MinuteRollups.NONE && minute > openMinute) {
      closeOpenMinute();
    }
    if (rollups.lateFor(minute)) {
      return;
    }
    openMinute = minute;
    openFromMillis = minute * MinuteRollups.MINUTE_MILLIS;
    openToMillis = openFromMillis + MinuteRollups.MINUTE_MILLIS;
    openMin = value;
    openMax = value;
    openSum = value;
    openCount = 1;
  }

  private void closeOpenMinute() {
    rollups.close(openMinute, openMin, openSum, openMax, openCount);
    openMinute = MinuteRollups.NONE;
    openFromMillis = Long.MAX_VALUE;
    openToMillis = Long.MIN_VALUE;
  }

  /** Closes the minute being filled if it is older than {@code minute}. */
  private void closeBefore(long minute) {
    if (openMinute != MinuteRollups.NONE && openMinute < minute) {
      closeOpenMinute();
    }
  }

  /** Doubles the arrays (up to the capacity), the samples moved to the start in time order. */
  private void grow() {
    int length = Math.min(capacity, offsets.length * 2);
    int[] grownOffsets = new int[length];
    double[] grownValues = new double[length];
    int start = physical(0);
    int head = size - start;
    System.arraycopy(offsets, start, grownOffsets, 0, head);
    System.arraycopy(offsets, 0, grownOffsets, head, start);
    System.arraycopy(values, start, grownValues, 0, head);
    System.arraycopy(values, 0, grownValues, head, start);
    offsets = grownOffsets;
    values = grownValues;
    next = size;
  }

  /**
   * Lets go of the samples too old to be kept with one taken at {@code timestampMillis}, and moves
   * the base to the oldest sample left.
   */
  private void rebase(long timestampMillis) {
    while (size > 0 && tooFarApart(timestampMillis, timestamp(0))) {
      size--;
    }
    long newBase = size == 0 ? timestampMillis : timestamp(0);
    int shift = (int) (newBase - baseMillis);
    for (int i = 0; i < size; i++) {
      offsets[physical(i)] -= shift;
    }
    baseMillis = newBase;
  }

  /**
   * Returns true if {@code later} is more than {@link #MAX_SPAN_MILLIS} after {@code earlier}, also
   * when the difference does not fit a long (an exporter's timestamps may be anything).
   */
  private static boolean tooFarApart(long later, long earlier) {
    long span = later - earlier;
    return span < 0 || span > MAX_SPAN_MILLIS;
  }

  /** Returns the timestamp of the sample at logical position {@code logical} (0 = oldest). */
  private long timestamp(int logical) {
    return baseMillis + offsets[physical(logical)];
  }

  /** Returns the closed minutes that start at or after {@code fromMillis}, oldest first. */
  synchronized List<MinuteRollup> rollup(long fromMillis) {
    return rollups == null ? List.of() : rollups.points(fromMillis, openMinute);
  }

  /**
   * Closes the minute being filled if it is older than {@code closeBefore}, then writes the record
   * of {@code minute} into {@code out} (all zero if the ring keeps no roll-ups).
   */
  synchronized void writeMinute(long minute, long closeBefore, ByteBuffer out) {
    if (rollups == null) {
      out.putFloat(0).putFloat(0).putFloat(0).putChar((char) 0);
      return;
    }
    closeBefore(closeBefore);
    rollups.writeRecord(minute, out, openMinute);
  }

  /** Closes the minute being filled if it is older than {@code minute}. */
  synchronized void closeMinutesBefore(long minute) {
    if (rollups != null) {
      closeBefore(minute);
    }
  }

  /** Puts back a closed minute read from a roll-up file. */
  synchronized void restoreMinute(long minute, float min, float avg, float max, int count) {
    if (rollups != null) {
      rollups.restore(minute, min, avg, max, count, openMinute);
    }
  }

  /**
   * Returns how many samples came for a minute already closed and were left out of the roll-ups.
   */
  synchronized long lateSamples() {
    return rollups == null ? 0 : rollups.late();
  }

  /** Returns the roll-ups, or null if the ring keeps none; for the archive's writer thread only. */
  MinuteRollups rollups() {
    return rollups;
  }

  /** Returns a copy of the samples taken at or after {@code fromMillis}, oldest first. */
  synchronized SampleWindow window(long fromMillis) {
    int first = firstAtOrAfter(fromMillis);
    int count = size - first;
    if (count == 0) {
      return SampleWindow.empty();
    }
    long[] windowTimestamps = new long[count];
    double[] windowValues = new double[count];
    int start = physical(first);
    int head = Math.min(count, offsets.length - start);
    long base = baseMillis;
    for (int i = 0; i < head; i++) {
      windowTimestamps[i] = base + offsets[start + i];
    }
    for (int i = head; i < count; i++) {
      windowTimestamps[i] = base + offsets[i - head];
    }
    System.arraycopy(values, start, windowValues, 0, head);
    System.arraycopy(values, 0, windowValues, head, count - head);
    return SampleWindow.wrap(windowTimestamps, windowValues, count);
  }

  /** Returns the newest sample, or null if there is none. */
  synchronized Sample latest() {
    if (size == 0) {
      return null;
    }
    return new Sample(timestamp(size - 1), values[physical(size - 1)]);
  }

  /** Returns how many samples the ring holds. */
  synchronized int size() {
    return size;
  }

  int capacity() {
    return capacity;
  }

  /**
   * Returns the logical position (0 = oldest) of the first sample at or after {@code fromMillis}.
   */
  private int firstAtOrAfter(long fromMillis) {
    // Windows are mostly the newest few seconds: gallop back from the newest sample, so the search
    // stays in the last cache lines of the ring, then halve the span found.
    int high = size;
    int step = 1;
    while (high - step >= 0 && timestamp(high - step) >= fromMillis) {
      high -= step;
      step <<= 1;
    }
    int low = Math.max(0, high - step);
    while (low < high) {
      int middle = (low + high) >>> 1;
      if (timestamp(middle) < fromMillis) {
        low = middle + 1;
      } else {
        high = middle;
      }
    }
    return low;
  }

  private int physical(int logical) {
    int index = next - size + logical;
    if (index < 0) {
      index += offsets.length;
    } else if (index >= offsets.length) {
      index -= offsets.length;
    }
    return index;
  }
}
