package io.bulwark.api.system;

import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * How often one client address may do something: a burst of attempts, then one every interval (a
 * token bucket per address). At most {@value #MAX_ADDRESSES} addresses are followed; the least
 * recently seen are forgotten first. A clock set back restarts the interval rather than stopping
 * the refill. Used by the anonymous routes that rate-limit per address (agent enrolment, PXE boot
 * scripts, enlistment reports), with a {@link SteadyClock}; thread-safe.
 *
 * @since 1.4
 */
public final class AddressBudget {
  /** How many addresses are followed at most. */
  public static final int MAX_ADDRESSES = 16_384;

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

  /**
   * Makes a budget of {@code burst} attempts per address, one more earned every {@code
   * refillSeconds}, measured on {@code clock}.
   *
   * @throws IllegalArgumentException if {@code burst} or {@code refillSeconds} is below 1
   */
  public AddressBudget(int burst, int refillSeconds, Clock clock) {
    if (burst < 1 || refillSeconds < 1) {
      throw new IllegalArgumentException(
          "a budget needs a burst and a refill interval of at least 1, not "
              + burst
              + " and "
              + refillSeconds
              + " s");
    }
    this.burst = burst;
    this.refillMillis = refillSeconds * 1000L;
    this.clock = clock;
  }

  /** Takes an attempt from the budget of {@code address}: 0, or the seconds until one is left. */
  public synchronized long take(String address) {
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
