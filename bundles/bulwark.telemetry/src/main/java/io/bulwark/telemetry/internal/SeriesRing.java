package io.bulwark.telemetry.internal;

import io.bulwark.api.telemetry.Sample;
import io.bulwark.api.telemetry.SampleWindow;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * The recent samples of one series in a fixed-size ring of primitive arrays: the newest sample
 * overwrites the oldest once the ring is full, and nothing is allocated per sample. Samples are
 * kept in time order: one that is not newer than the newest kept is refused. One scrape writes
 * while any number of readers take copies; every method synchronises on the ring, and holds the
 * lock only to copy a few arrays. It may also keep {@link MinuteRollups} of the samples, updated as
 * they are appended.
 */
final class SeriesRing {
  private final long[] timestamps;
  private final double[] values;
  private int next;
  private int size;
  private final MinuteRollups rollups;

  SeriesRing(int capacity) {
    this(capacity, 0);
  }

  /** Creates a ring of {@code capacity} samples that rolls up its last {@code rollupMinutes}. */
  SeriesRing(int capacity, int rollupMinutes) {
    if (capacity < 1) {
      throw new IllegalArgumentException(
          "a series needs room for at least one sample, not " + capacity);
    }
    timestamps = new long[capacity];
    values = new double[capacity];
    rollups = rollupMinutes > 0 ? new MinuteRollups(rollupMinutes) : null;
  }

  /**
   * Appends a sample; returns false (and keeps nothing) if it is not newer than the newest sample.
   */
  synchronized boolean append(long timestampMillis, double value) {
    if (size > 0 && timestampMillis <= timestamps[physical(size - 1)]) {
      return false;
    }
    timestamps[next] = timestampMillis;
    values[next] = value;
    next = next + 1 == timestamps.length ? 0 : next + 1;
    if (size < timestamps.length) {
      size++;
    }
    if (rollups != null) {
      rollups.add(timestampMillis, value);
    }
    return true;
  }

  /** Returns the closed minutes that start at or after {@code fromMillis}, oldest first. */
  synchronized List<MinuteRollup> rollup(long fromMillis) {
    return rollups == null ? List.of() : rollups.points(fromMillis);
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
    rollups.closeBefore(closeBefore);
    rollups.writeRecord(minute, out);
  }

  /** Closes the minute being filled if it is older than {@code minute}. */
  synchronized void closeMinutesBefore(long minute) {
    if (rollups != null) {
      rollups.closeBefore(minute);
    }
  }

  /** Puts back a closed minute read from a roll-up file. */
  synchronized void restoreMinute(long minute, float min, float avg, float max, int count) {
    if (rollups != null) {
      rollups.restore(minute, min, avg, max, count);
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
    int head = Math.min(count, timestamps.length - start);
    System.arraycopy(timestamps, start, windowTimestamps, 0, head);
    System.arraycopy(values, start, windowValues, 0, head);
    System.arraycopy(timestamps, 0, windowTimestamps, head, count - head);
    System.arraycopy(values, 0, windowValues, head, count - head);
    return SampleWindow.wrap(windowTimestamps, windowValues, count);
  }

  /** Returns the newest sample, or null if there is none. */
  synchronized Sample latest() {
    if (size == 0) {
      return null;
    }
    int newest = physical(size - 1);
    return new Sample(timestamps[newest], values[newest]);
  }

  /** Returns how many samples the ring holds. */
  synchronized int size() {
    return size;
  }

  int capacity() {
    return timestamps.length;
  }

  /**
   * Returns the logical position (0 = oldest) of the first sample at or after {@code fromMillis}.
   */
  private int firstAtOrAfter(long fromMillis) {
    int low = 0;
    int high = size;
    while (low < high) {
      int middle = (low + high) >>> 1;
      if (timestamps[physical(middle)] < fromMillis) {
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
      index += timestamps.length;
    } else if (index >= timestamps.length) {
      index -= timestamps.length;
    }
    return index;
  }
}
