package io.bulwark.health.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.bulwark.api.health.CapacityInterval;
import io.bulwark.api.health.LossCause;
import io.bulwark.store.internal.MapDbRecordStore;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The hourly capacity account on the real store: it survives a restart, a saved hour replaces
 * itself.
 */
class StoreCapacityLedgerTest {
  private static final Instant H0 = Instant.parse("2026-11-29T10:00:00Z");

  @TempDir Path dir;

  private static CapacityInterval hour(Instant start, long observed, double failure) {
    return new CapacityInterval(
        start,
        start.plus(Duration.ofHours(1)),
        observed,
        512.0,
        512.0 - failure - 3.5,
        Map.of(LossCause.FAILURE, failure, LossCause.THROTTLE, 2.0, LossCause.STRAGGLER, 1.5));
  }

  @Test
  void hoursSurviveARestartAndASavedHourIsReplaced() {
    try (MapDbRecordStore store = MapDbRecordStore.inFolder(dir)) {
      StoreCapacityLedger ledger = new StoreCapacityLedger(store);
      ledger.save(hour(H0, 1_800_000, 4.0));
      ledger.save(hour(H0, 3_600_000, 8.0));
      ledger.save(hour(H0.plus(Duration.ofHours(1)), 60_000, 0.1));
    }
    try (MapDbRecordStore store = MapDbRecordStore.inFolder(dir)) {
      StoreCapacityLedger ledger = new StoreCapacityLedger(store);
      assertThat(ledger.since(H0))
          .containsExactly(
              hour(H0, 3_600_000, 8.0), hour(H0.plus(Duration.ofHours(1)), 60_000, 0.1));
      assertThat(ledger.since(H0.plusSeconds(1))).hasSize(1);
      assertThat(ledger.since(H0).get(0).lost(LossCause.DEGRADED)).isZero();
    }
  }

  @Test
  void hoursOlderThanTheKeepingPeriodAreDropped() {
    try (MapDbRecordStore store = MapDbRecordStore.inFolder(dir)) {
      StoreCapacityLedger ledger = new StoreCapacityLedger(store);
      Instant old = H0.minus(StoreCapacityLedger.KEPT).minus(Duration.ofHours(2));
      ledger.save(hour(old, 3_600_000, 1.0));
      ledger.save(hour(H0, 3_600_000, 1.0));
      assertThat(ledger.since(Instant.EPOCH))
          .extracting(CapacityInterval::start)
          .containsExactly(H0);
    }
  }
}
