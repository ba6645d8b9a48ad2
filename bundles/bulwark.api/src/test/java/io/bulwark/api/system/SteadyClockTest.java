package io.bulwark.api.system;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class SteadyClockTest {
  private final AtomicLong nanos = new AtomicLong(123_456_789L);
  private final Wall wall = new Wall(Instant.parse("2026-12-07T10:00:00Z"));

  @Test
  void aWallClockThatJumpsAnHourEitherWayDoesNotMoveTheSteadyClock() {
    SteadyClock steady = SteadyClock.of(wall.millis(), nanos::get);
    Instant start = steady.instant();
    // Ten minutes pass, then NTP steps the wall clock an hour forward
    nanos.addAndGet(Duration.ofMinutes(10).toNanos());
    wall.advance(Duration.ofMinutes(10).plusHours(1));
    assertThat(Duration.between(start, steady.instant())).isEqualTo(Duration.ofMinutes(10));
    assertThat(steady.offsetMillis(wall)).isEqualTo(Duration.ofHours(1).toMillis());
    // Then a bad RTC is set right: an hour back, and five more minutes pass
    wall.advance(Duration.ofHours(-2));
    nanos.addAndGet(Duration.ofMinutes(5).toNanos());
    wall.advance(Duration.ofMinutes(5));
    assertThat(Duration.between(start, steady.instant())).isEqualTo(Duration.ofMinutes(15));
    assertThat(steady.millis()).isEqualTo(steady.instant().toEpochMilli());
    assertThat(steady.offsetMillis(wall)).isEqualTo(-Duration.ofHours(1).toMillis());
  }

  @Test
  void theSystemClockStartsAtTheWallTimeAndKeepsItsZone() {
    SteadyClock system = SteadyClock.system();
    assertThat(Math.abs(system.offsetMillis(Clock.systemUTC()))).isLessThan(60_000);
    Clock paris = system.withZone(ZoneId.of("Europe/Paris"));
    assertThat(paris.getZone()).isEqualTo(ZoneId.of("Europe/Paris"));
    assertThat(Math.abs(paris.millis() - system.millis())).isLessThan(1_000);
    assertThat(system.withZone(ZoneOffset.UTC)).isSameAs(system);
  }

  /** A wall clock the test steps. */
  static final class Wall extends Clock {
    private Instant now;

    Wall(Instant start) {
      now = start;
    }

    void advance(Duration d) {
      now = now.plus(d);
    }

    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      return this;
    }

    @Override
    public Instant instant() {
      return now;
    }
  }
}
