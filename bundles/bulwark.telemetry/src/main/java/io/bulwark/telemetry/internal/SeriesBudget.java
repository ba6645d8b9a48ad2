package io.bulwark.telemetry.internal;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * How many series telemetry may hold in memory, so that no exporter, however many series it
 * invents, can exhaust the heap: a series beyond the budget is not created (its samples are dropped
 * and its target says so). The automatic budget is what a share of the heap holds at the configured
 * retention. Thread-safe.
 */
final class SeriesBudget {
  /** A budget that never refuses (tests and tools). */
  static final SeriesBudget UNLIMITED = new SeriesBudget(Integer.MAX_VALUE);

  /** The share of the maximum heap the series may take. */
  static final double HEAP_SHARE = 0.6;

  private final int limit;
  private final AtomicInteger used = new AtomicInteger();

  SeriesBudget(int limit) {
    if (limit < 1) {
      throw new IllegalArgumentException("maxSeries must be at least 1, not " + limit);
    }
    this.limit = limit;
  }

  /**
   * Returns the budget for series of {@code retention} samples and {@code rollupMinutes} minutes of
   * roll-ups: {@code configured} if positive, else {@link #HEAP_SHARE} of {@code maxHeapBytes}.
   */
  static SeriesBudget of(int configured, long maxHeapBytes, int retention, int rollupMinutes) {
    if (configured > 0) {
      return new SeriesBudget(configured);
    }
    long perSeries = bytesPerSeries(retention, rollupMinutes);
    long fits = (long) (maxHeapBytes * HEAP_SHARE) / perSeries;
    return new SeriesBudget((int) Math.max(1, Math.min(Integer.MAX_VALUE, fits)));
  }

  /**
   * Returns the memory one full series takes: 12 bytes a sample (a 4-byte time offset and an 8-byte
   * value), 16 bytes a roll-up minute, and 1 KiB for its tables, names and the parser's memory of
   * its line.
   */
  static long bytesPerSeries(int retention, int rollupMinutes) {
    return 12L * retention + 16L * rollupMinutes + 1024;
  }

  /** Takes one series from the budget; returns false if none is left. */
  boolean reserve() {
    while (true) {
      int now = used.get();
      if (now >= limit) {
        return false;
      }
      if (used.compareAndSet(now, now + 1)) {
        return true;
      }
    }
  }

  /** Gives {@code series} back. */
  void release(int series) {
    used.addAndGet(-series);
  }

  int limit() {
    return limit;
  }

  int used() {
    return used.get();
  }
}
