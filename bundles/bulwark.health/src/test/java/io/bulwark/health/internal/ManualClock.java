package io.bulwark.health.internal;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** A clock the engine tests move by hand. */
final class ManualClock extends Clock {
  private long millis;

  ManualClock(long startMillis) {
    this.millis = startMillis;
  }

  void advance(long deltaMillis) {
    millis += deltaMillis;
  }

  @Override
  public long millis() {
    return millis;
  }

  @Override
  public Instant instant() {
    return Instant.ofEpochMilli(millis);
  }

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  @Override
  public Clock withZone(ZoneId zone) {
    throw new UnsupportedOperationException();
  }
}
