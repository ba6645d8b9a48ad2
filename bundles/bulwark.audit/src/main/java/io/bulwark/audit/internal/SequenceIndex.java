package io.bulwark.audit.internal;

import java.util.Arrays;

/**
 * A sparse index from sequence numbers to byte offsets (one entry per {@value #EVERY} records), so
 * that a search for a page deep in a large log starts near it instead of at the first record.
 * Thread-safe.
 */
final class SequenceIndex {
  static final int EVERY = 128;

  private long[] sequences = new long[64];
  private long[] offsets = new long[64];
  private int size;
  private long added;

  /** Notes that record {@code sequence} starts at {@code offset}; records come in file order. */
  synchronized void add(long sequence, long offset) {
    if (added++ % EVERY != 0) {
      return;
    }
    if (size == sequences.length) {
      sequences = Arrays.copyOf(sequences, size * 2);
      offsets = Arrays.copyOf(offsets, size * 2);
    }
    sequences[size] = sequence;
    offsets[size] = offset;
    size++;
  }

  /** Returns an offset at or before the first record after {@code afterSequence}. */
  synchronized long startAfter(long afterSequence) {
    int low = 0;
    int high = size - 1;
    long found = 0;
    while (low <= high) {
      int mid = (low + high) >>> 1;
      if (sequences[mid] <= afterSequence + 1) {
        found = offsets[mid];
        low = mid + 1;
      } else {
        high = mid - 1;
      }
    }
    return found;
  }
}
