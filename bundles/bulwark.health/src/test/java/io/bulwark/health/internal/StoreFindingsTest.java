package io.bulwark.health.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.bulwark.api.fleet.NodeId;
import io.bulwark.api.health.Finding;
import io.bulwark.api.health.FindingQuery;
import io.bulwark.api.health.FindingState;
import io.bulwark.api.health.Severity;
import io.bulwark.api.store.RecordStore;
import io.bulwark.api.store.StoreReader;
import io.bulwark.api.store.WritePriority;
import io.bulwark.store.internal.MapDbRecordStore;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The findings on the real store: queries, every field kept, the open ones across a reopen. */
class StoreFindingsTest {
  private static final NodeId NODE = NodeId.of("gpu-node-001");
  private static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");

  @TempDir Path dir;

  @Test
  void findingsAreQueriedByStateKindAndNodeNewestFirst() {
    try (MapDbRecordStore store = MapDbRecordStore.inFolder(dir)) {
      StoreFindings findings = new StoreFindings(store);
      Finding thermal =
          finding("f2", "thermal-throttle", NODE, FindingState.OPEN, T0.plusSeconds(5));
      findings.save(finding("f1", "xid", NODE, FindingState.OPEN, T0));
      findings.save(thermal);
      findings.save(
          finding("f3", "xid", NodeId.of("gpu-node-002"), FindingState.OPEN, T0.plusSeconds(9)));
      findings.save(thermal.resolve(T0.plusSeconds(30)));

      assertThat(findings.find(FindingQuery.open()))
          .extracting(Finding::id)
          .containsExactly("f3", "f1");
      assertThat(findings.find(FindingQuery.all().withState(FindingState.RESOLVED)))
          .extracting(Finding::id)
          .containsExactly("f2");
      assertThat(findings.find(FindingQuery.all().withKind("xid").withNode(NODE)))
          .extracting(Finding::id)
          .containsExactly("f1");
      assertThat(findings.find(FindingQuery.all().withLimit(1)))
          .extracting(Finding::id)
          .containsExactly("f3");
      assertThat(findings.get("f2")).map(Finding::resolvedAt).contains(T0.plusSeconds(30));
      assertThat(findings.get("missing")).isEmpty();
    }
    try (MapDbRecordStore store = MapDbRecordStore.inFolder(dir)) {
      assertThat(new StoreFindings(store).find(FindingQuery.open()))
          .as("after a reopen")
          .extracting(Finding::id)
          .containsExactly("f3", "f1");
    }
  }

  @Test
  void aFindingKeepsEveryField() {
    Finding f =
        new Finding(
            "id-1",
            "straggler",
            NODE,
            3,
            Severity.WARNING,
            FindingState.OPEN,
            T0,
            T0.plusMillis(1500),
            null,
            "SM clock 30% below peers",
            Map.of("sm_clock_mhz", "1380", "peer_median", "1980"),
            "Drain and run dcgmi diag -r 3",
            0.7,
            42,
            "GPU-5d3a9c1e-7b42-4f0e-9a61-2c8e0f1b7d30");
    try (MapDbRecordStore store = MapDbRecordStore.inFolder(dir)) {
      new StoreFindings(store).save(f);
    }
    try (MapDbRecordStore store = MapDbRecordStore.inFolder(dir)) {
      assertThat(new StoreFindings(store).get("id-1")).contains(f);
    }
  }

  @Test
  void onlyFindingsAboutTheApplianceItselfGoIntoTheStoresReserve() {
    try (MapDbRecordStore store = MapDbRecordStore.inFolder(dir)) {
      List<WritePriority> priorities = new ArrayList<>();
      RecordStore probe =
          new RecordStore() {
            @Override
            public <T> T read(Function<StoreReader, T> query) {
              return store.read(query);
            }

            @Override
            public <T> T write(
                String what, WritePriority priority, Function<StoreReader, T> change) {
              priorities.add(priority);
              return store.write(what, priority, change);
            }
          };
      StoreFindings findings = new StoreFindings(probe);
      findings.save(finding("x", "xid", NODE, FindingState.OPEN, T0));
      findings.save(
          finding(
              "disk", "appliance-store", NodeId.of("bulwark-appliance"), FindingState.OPEN, T0));
      assertThat(priorities).containsExactly(WritePriority.ROUTINE, WritePriority.RESERVED);
    }
  }

  static Finding finding(
      String id, String kind, NodeId node, FindingState state, Instant lastSeen) {
    return new Finding(
        id,
        kind,
        node,
        0,
        Severity.CRITICAL,
        state,
        lastSeen,
        lastSeen,
        state == FindingState.RESOLVED ? lastSeen : null,
        kind + " on " + node,
        Map.of(),
        "",
        1.0,
        1);
  }
}
