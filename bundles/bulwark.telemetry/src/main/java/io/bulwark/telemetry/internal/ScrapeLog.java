package io.bulwark.telemetry.internal;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.function.LongSupplier;

/**
 * The log of scrape problems, shared by every target: each target logs a problem when it changes,
 * but when thousands of targets change at once (a switch that fails, an overloaded exporter host,
 * the series budget reached) that would be thousands of lines a minute and a full disk. So at most
 * {@link #PER_MINUTE} lines are written a minute; the rest are counted and summed up in one line
 * when the next minute starts. Every target's state stays on its status, whatever the log says.
 */
final class ScrapeLog {
  static final int PER_MINUTE = 20;
  private static final long MINUTE_MILLIS = 60_000;

  private final Logger log;
  private final LongSupplier clock;
  private long windowStart = Long.MIN_VALUE;
  private int written;
  private int withheld;

  ScrapeLog(Logger log, LongSupplier clock) {
    this.log = log;
    this.clock = clock;
  }

  /** Logs the message unless this minute's share is spent; returns true if it was written. */
  synchronized boolean log(Level level, String format, Object... args) {
    long now = clock.getAsLong();
    if (windowStart == Long.MIN_VALUE || now - windowStart >= MINUTE_MILLIS) {
      if (withheld > 0) {
        log.log(
            Level.WARNING,
            "Telemetry: {0} more scrape problem(s) and recoveries in the last minute were not logged"
                + " one by one; every target''s state is under Telemetry targets on the System page"
                + " (GET /api/v1/telemetry/targets)",
            withheld);
      }
      windowStart = now;
      written = 0;
      withheld = 0;
    }
    if (written >= PER_MINUTE) {
      withheld++;
      return false;
    }
    written++;
    log.log(level, format, args);
    return true;
  }

  /** Returns how many lines this minute withheld so far (tests). */
  synchronized int withheld() {
    return withheld;
  }
}
