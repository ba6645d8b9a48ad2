package io.bulwark.health.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.bulwark.api.fleet.NodeId;
import io.bulwark.api.health.CapacityInterval;
import io.bulwark.api.health.CapacityReport;
import io.bulwark.api.health.FindingKind;
import io.bulwark.api.health.GpuCapacity;
import io.bulwark.api.health.LossCause;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Lost GPU-hours are booked by cause, hour by hour: a failed GPU loses all its time, a throttled or
 * straggling one the share it runs slow; gaps (the appliance stopped) are not booked; an hour saved
 * before a restart goes on from where it was.
 */
class CapacityBookTest {
  private static final NodeId NODE = NodeId.of("gpu-node-001");
  private static final long HOUR = Instant.parse("2026-11-29T10:00:00Z").toEpochMilli();

  private static CapacityReport fleet(long at) {
    return CapacityReport.of(
        Instant.ofEpochMilli(at),
        List.of(
            new GpuCapacity(NODE, 0, true, 1.0, ""),
            new GpuCapacity(NODE, 1, false, 0.0, FindingKind.XID),
            new GpuCapacity(NODE, 2, true, 0.7, FindingKind.THERMAL_THROTTLE),
            new GpuCapacity(NODE, 3, true, 0.9, FindingKind.STRAGGLER)));
  }

  private static void run(CapacityBook book, long fromMillis, long toMillis, long stepMillis) {
    for (long t = fromMillis; t <= toMillis; t += stepMillis) {
      book.book(fleet(t), t);
    }
  }

  @Test
  void lostHoursAreBookedByCause() {
    CapacityBook book = new CapacityBook(new MemoryLedger());
    run(book, HOUR, HOUR + 1_800_000, 2000);

    CapacityInterval half = book.history(Instant.ofEpochMilli(HOUR)).get(0);
    assertThat(half.observedMillis()).isEqualTo(1_800_000);
    assertThat(half.gpuHoursInstalled()).isCloseTo(2.0, within(1e-9));
    assertThat(half.lost(LossCause.FAILURE)).isCloseTo(0.5, within(1e-9));
    assertThat(half.lost(LossCause.THROTTLE)).isCloseTo(0.15, within(1e-9));
    assertThat(half.lost(LossCause.STRAGGLER)).isCloseTo(0.05, within(1e-9));
    assertThat(half.lost(LossCause.DEGRADED)).isZero();
    assertThat(half.gpuHoursDelivered() + half.gpuHoursLostTotal())
        .isCloseTo(half.gpuHoursInstalled(), within(1e-9));
  }

  @Test
  void aGapWhileTheApplianceWasStoppedIsNotBooked() {
    CapacityBook book = new CapacityBook(new MemoryLedger());
    run(book, HOUR, HOUR + 60_000, 2000);
    run(book, HOUR + 600_000, HOUR + 660_000, 2000);

    assertThat(book.history(Instant.ofEpochMilli(HOUR)).get(0).observedMillis()).isEqualTo(120_000);
  }

  @Test
  void hoursAreSavedAndAResumedHourGoesOn() {
    MemoryLedger ledger = new MemoryLedger();
    CapacityBook before = new CapacityBook(ledger);
    run(before, HOUR, HOUR + 3_600_000 + 120_000, 2000);
    before.flush();
    List<CapacityInterval> saved = ledger.since(Instant.ofEpochMilli(HOUR));
    assertThat(saved)
        .extracting(CapacityInterval::start)
        .containsExactly(Instant.ofEpochMilli(HOUR), Instant.ofEpochMilli(HOUR + 3_600_000));
    assertThat(saved.get(0).observedMillis()).isEqualTo(3_600_000);

    CapacityBook after = new CapacityBook(ledger);
    run(after, HOUR + 3_700_000, HOUR + 3_760_000, 2000);

    CapacityInterval second = after.history(Instant.ofEpochMilli(HOUR + 3_600_000)).get(0);
    assertThat(second.observedMillis()).isEqualTo(120_000 + 60_000);
  }
}
