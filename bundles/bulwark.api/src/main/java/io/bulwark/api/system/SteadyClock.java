package io.bulwark.api.system;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.function.LongSupplier;

/**
 * A clock that reads the wall time once, when it is made, and then advances only with the monotonic
 * clock of the JVM ({@link System#nanoTime()}): an NTP step or a bad RTC corrected at boot does not
 * move it. Components that measure durations (sessions, lockouts, leases, rate limits, remediation
 * timeouts) take it instead of {@link Clock#systemUTC()}, so that a clock that jumps an hour
 * forward does not end every session and one that jumps back does not keep a lockout an hour
 * longer. Records people read as dates (the audit log, certificates, token expiry) keep wall time.
 * Thread-safe.
 *
 * @since 1.4
 */
public final class SteadyClock extends Clock {
  private static final SteadyClock SYSTEM =
      new SteadyClock(Clock.systemUTC().millis(), System::nanoTime);

  private final long anchorMillis;
  private final long anchorNanos;
  private final LongSupplier nanoTime;
  private final ZoneId zone;

  private SteadyClock(long anchorMillis, LongSupplier nanoTime) {
    this(anchorMillis, nanoTime.getAsLong(), nanoTime, ZoneOffset.UTC);
  }

  private SteadyClock(long anchorMillis, long anchorNanos, LongSupplier nanoTime, ZoneId zone) {
    this.anchorMillis = anchorMillis;
    this.anchorNanos = anchorNanos;
    this.nanoTime = nanoTime;
    this.zone = zone;
  }

  /** Returns the JVM's steady clock, anchored to the wall time when the framework loaded it. */
  public static SteadyClock system() {
    return SYSTEM;
  }

  /**
   * Returns a steady clock anchored at {@code wallMillis} now, advancing with {@code nanoTime}: for
   * tests that move the monotonic clock themselves.
   */
  public static SteadyClock of(long wallMillis, LongSupplier nanoTime) {
    return new SteadyClock(wallMillis, nanoTime);
  }

  @Override
  public long millis() {
    return anchorMillis + Math.floorDiv(nanoTime.getAsLong() - anchorNanos, 1_000_000L);
  }

  @Override
  public Instant instant() {
    long elapsed = nanoTime.getAsLong() - anchorNanos;
    return Instant.ofEpochMilli(anchorMillis).plusNanos(elapsed);
  }

  /**
   * Returns how far the wall clock {@code wall} has moved from this clock since the anchor, in
   * milliseconds: 0 while nothing stepped it; positive after a step forward.
   */
  public long offsetMillis(Clock wall) {
    return wall.millis() - millis();
  }

  @Override
  public ZoneId getZone() {
    return zone;
  }

  @Override
  public Clock withZone(ZoneId other) {
    return other.equals(zone) ? this : new SteadyClock(anchorMillis, anchorNanos, nanoTime, other);
  }
}
