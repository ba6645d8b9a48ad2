package io.bulwark.agents.internal;

import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * How often one address may try to enrol a node agent: a burst of {@value #BURST} attempts, then
 * one every {@value #REFILL_SECONDS} s. A node's agent enrols once, and again only when it is
 * re-enrolled, so the budget is never in the way of an agent; it keeps whoever guesses tokens, or
 * floods the anonymous route, to a few attempts a minute. At most {@value #MAX_ADDRESSES} addresses
 * are followed (the least recently seen are forgotten). Used by {@link AgentRoutes}; thread-safe.
 */
final class EnrolmentBudget {
  static final int BURST = 10;
  static final int REFILL_SECONDS = 6;
  static final int MAX_ADDRESSES = 16_384;

  private final Clock clock;
  private final Map<String, Bucket> buckets =
      new LinkedHashMap<>(256, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Bucket> eldest) {
          return size() > MAX_ADDRESSES;
        }
      };

  EnrolmentBudget(Clock clock) {
    this.clock = clock;
  }

  /** Takes an attempt from the budget of {@code address}: 0, or the seconds until one is left. */
  synchronized long take(String address) {
    long now = clock.millis();
    long refill = REFILL_SECONDS * 1000L;
    Bucket b = buckets.computeIfAbsent(address, a -> new Bucket(BURST, now));
    long earned = (now - b.at) / refill;
    if (earned > 0) {
      b.tokens = (int) Math.min(BURST, b.tokens + earned);
      b.at += earned * refill;
    }
    if (b.tokens == BURST) {
      b.at = now;
    }
    if (b.tokens > 0) {
      b.tokens--;
      return 0;
    }
    return Math.max(1, (b.at + refill - now + 999) / 1000);
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
