package io.bulwark.pxe.internal;

import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Logs a warning about one client at most once a minute: a machine whose boot fails retries its
 * DHCP request every few seconds, and a flood of such requests (or many machines at once) would
 * otherwise fill the log with the same line. The next warning for the same key after the minute
 * says how many were held back. Keys are bounded (the least recently warned are forgotten first).
 * Thread-safe.
 */
final class RepeatedWarnings {
  static final long INTERVAL_MILLIS = 60_000;
  private static final int MAX_KEYS = 4_096;

  private final Logger log;
  private final Clock clock;
  private final Map<String, long[]> last =
      new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, long[]> eldest) {
          return size() > MAX_KEYS;
        }
      };

  RepeatedWarnings(Logger log, Clock clock) {
    this.log = log;
    this.clock = clock;
  }

  /**
   * Logs {@code message} at WARNING unless the same {@code key} (a kind of warning and a client)
   * was logged less than a minute ago; returns true if it was logged.
   */
  boolean warn(String key, Supplier<String> message) {
    long now = clock.millis();
    long held;
    synchronized (last) {
      long[] seen = last.get(key);
      if (seen != null && now - seen[0] < INTERVAL_MILLIS) {
        seen[1]++;
        return false;
      }
      held = seen == null ? 0 : seen[1];
      last.put(key, new long[] {now, 0});
    }
    if (log.isLoggable(Level.WARNING)) {
      String text = message.get();
      log.warning(
          held == 0
              ? text
              : text + " (" + held + " more like this in the last minute were not logged)");
    }
    return true;
  }
}
