package io.bulwark.security.internal;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** TEST DOUBLE: a UTC clock that stands still until a test moves it forward. Thread-safe. */
final class SettableClock extends Clock {
  private volatile Instant now;

  SettableClock(Instant start) {
    this.now = start;
  }

  /** Moves the clock forward by {@code step}. */
  void advance(Duration step) {
    now = now.plus(step);
  }

  @Override
  public Instant instant() {
    return now;
  }

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  @Override
  public Clock withZone(ZoneId zone) {
    throw new UnsupportedOperationException("the test clock is UTC only");
  }
}
