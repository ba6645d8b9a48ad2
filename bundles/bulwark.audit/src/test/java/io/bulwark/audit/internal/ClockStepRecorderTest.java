package io.bulwark.audit.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.bulwark.api.system.SteadyClock;
import io.bulwark.testing.RecordingAuditLog;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class ClockStepRecorderTest {
  private final AtomicLong nanos = new AtomicLong();
  private final MovableClock wall = new MovableClock(Instant.parse("2026-12-07T10:00:00Z"));
  private final RecordingAuditLog audit = new RecordingAuditLog();

  @Test
  void aStepOfTheWallClockEitherWayIsRecordedOnceWithItsSizeAndDriftIsNot() {
    ClockStepRecorder recorder =
        new ClockStepRecorder(audit, wall, SteadyClock.of(wall.millis(), nanos::get), false);
    // Time passes on both clocks, with a second of drift: no step
    tick(Duration.ofMinutes(3), Duration.ofMinutes(3).plusSeconds(1));
    assertThat(recorder.check()).isZero();
    // NTP steps the clock an hour forward
    tick(Duration.ofSeconds(5), Duration.ofSeconds(5).plusHours(1));
    assertThat(recorder.check()).isEqualTo(Duration.ofHours(1).toMillis());
    assertThat(recorder.check()).as("recorded once").isZero();
    // A bad RTC set right: an hour back
    tick(Duration.ofSeconds(5), Duration.ofSeconds(5).minusHours(1));
    assertThat(recorder.check()).isEqualTo(-Duration.ofHours(1).toMillis());
    assertThat(audit.records).hasSize(2);
    assertThat(audit.records.get(0).event().action()).isEqualTo("system.clock-step");
    assertThat(audit.records.get(0).event().details())
        .containsEntry("direction", "forward")
        .containsEntry("stepMillis", "3600000");
    assertThat(audit.records.get(1).event().details())
        .containsEntry("direction", "back")
        .containsEntry("stepMillis", "-3600000");
  }

  private void tick(Duration steady, Duration onTheWall) {
    nanos.addAndGet(steady.toNanos());
    wall.advance(onTheWall);
  }

  /** A wall clock the test steps. */
  static final class MovableClock extends Clock {
    private Instant now;

    MovableClock(Instant start) {
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
