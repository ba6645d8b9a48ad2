package io.bulwark.health.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.bulwark.api.fleet.NodeId;
import io.bulwark.api.health.CapacityInterval;
import io.bulwark.api.health.Finding;
import io.bulwark.api.health.FindingQuery;
import io.bulwark.api.health.FindingState;
import io.bulwark.api.health.LossCause;
import io.bulwark.api.health.Severity;
import io.bulwark.store.internal.MapDbRecordStore;
import io.bulwark.testing.LegacyStore;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A data folder written by Bulwark 0.1 opens with its findings (the open one restorable, the
 * resolved one kept) and its capacity account as they were.
 */
class HealthMigrationTest {
  private static final Instant NINE = Instant.parse("2026-11-30T09:00:00Z");

  @TempDir Path dir;

  @Test
  void theFindingsAndTheCapacityAccountOfA01DataFolderReadAsTheyWere() {
    LegacyStore.unpack(dir);
    try (MapDbRecordStore store = MapDbRecordStore.inFolder(dir)) {
      StoreFindings findings = new StoreFindings(store);
      List<Finding> open = findings.find(FindingQuery.open());
      assertThat(open)
          .singleElement()
          .satisfies(
              f -> {
                assertThat(f.id()).isEqualTo("xid-gpu-node-001-1");
                assertThat(f.kind()).isEqualTo("xid");
                assertThat(f.node()).isEqualTo(NodeId.of("gpu-node-001"));
                assertThat(f.gpu()).isEqualTo(1);
                assertThat(f.severity()).isEqualTo(Severity.CRITICAL);
                assertThat(f.summary()).isEqualTo("XID 79 on GPU 1");
                assertThat(f.evidence()).containsEntry("xid", "79");
                assertThat(f.performanceFactor()).isZero();
                assertThat(f.occurrences()).isEqualTo(3);
              });
      assertThat(findings.get("thermal-gpu-node-002-0"))
          .hasValueSatisfying(
              f -> {
                assertThat(f.state()).isEqualTo(FindingState.RESOLVED);
                assertThat(f.severity()).isEqualTo(Severity.WARNING);
                assertThat(f.resolvedAt()).isNotNull();
              });

      List<CapacityInterval> hours = new StoreCapacityLedger(store).since(Instant.EPOCH);
      assertThat(hours)
          .extracting(CapacityInterval::start)
          .containsExactly(NINE, NINE.plusSeconds(3600));
      assertThat(hours.get(0).lost(LossCause.FAILURE)).isEqualTo(1.5);
      assertThat(hours.get(0).lost(LossCause.THROTTLE)).isEqualTo(0.25);

      findings.save(open.get(0).resolve(Instant.parse("2026-12-01T08:00:00Z")));
      assertThat(findings.find(FindingQuery.open())).isEmpty();
    }
  }
}
