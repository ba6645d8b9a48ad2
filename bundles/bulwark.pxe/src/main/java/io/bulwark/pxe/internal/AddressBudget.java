package io.bulwark.pxe.internal;

import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * How often one client address may do something: a burst of attempts, then one every interval (a
 * token bucket per address). At most {@value #MAX_ADDRESSES} addresses are followed; the least
 * recently seen are forgotten first. A clock set back restarts the interval rather than stopping
 * the refill. Used by {@link BootScripts}; thread-safe.
 */
final class AddressBudget {
  static final int MAX_ADDRESSES = 16_384;

  private final int burst;
  private final long refillMillis;
  private final Clock clock;
  private final Map<String, Bucket> buckets =
      new LinkedHashMap<>(256, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Bucket> eldest) {
          return size() > MAX_ADDRESSES;
        }
      };

  AddressBudget(int burst, int refillSeconds, Clock clock) {
    this.burst = burst;
    this.refillMillis = refillSeconds * 1000L;
    this.clock = clock;
  }

  /** Takes an attempt from the budget of {@code address}: 0, or the seconds until one is left. */
  synchronized long take(String address) {
    long now = clock.millis();
    Bucket b = buckets.computeIfAbsent(address, a -> new Bucket(burst, now));
    if (now < b.at) {
      b.at = now;
    }
    long earned = (now - b.at) / refillMillis;
    if (earned > 0) {
      b.tokens = (int) Math.min(burst, b.tokens + earned);
      b.at += earned * refillMillis;
    }
    if (b.tokens == burst) {
      b.at = now;
    }
    if (b.tokens > 0) {
      b.tokens--;
      return 0;
    }
    return Math.max(1, (b.at + refillMillis - now + 999) / 1000);
  }

  /** The attempts an address has left, and since when the next one is earned. */
  private static final class Bucket {
    int tokens;
    long at;

    Bucket(int tokens, long at) {
      this.tokens = tokens;
      this.at = at;
    }
  }
}
