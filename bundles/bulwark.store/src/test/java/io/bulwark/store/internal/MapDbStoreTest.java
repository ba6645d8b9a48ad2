package io.bulwark.store.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bulwark.api.fleet.Gpu;
import io.bulwark.api.fleet.LifecycleState;
import io.bulwark.api.fleet.Node;
import io.bulwark.api.fleet.NodeId;
import io.bulwark.api.health.Finding;
import io.bulwark.api.health.FindingQuery;
import io.bulwark.api.health.FindingState;
import io.bulwark.api.health.Severity;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MapDbStoreTest {
  private static final NodeId NODE = NodeId.of("gpu-node-001");
  private static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");

  @TempDir Path dir;

  @Test
  void inventoryNeverForgetsAGpuAndRefreshesWhatTelemetryReports() {
    try (MapDbStore store = new MapDbStore(new StoreOptions(dir))) {
      store.recordObserved(
          NODE, List.of(new Gpu(0, "GPU-a", "H100"), new Gpu(1, "GPU-b", "H100")), T0);
      Node later = store.recordObserved(NODE, List.of(new Gpu(1, "", "")), T0.plusSeconds(60));

      assertThat(later.gpus()).extracting(Gpu::index).containsExactly(0, 1);
      assertThat(later.gpu(1)).contains(new Gpu(1, "GPU-b", "H100"));
      assertThat(later.firstSeen()).isEqualTo(T0);
      assertThat(later.lastSeen()).isEqualTo(T0.plusSeconds(60));
      assertThat(later.state()).isEqualTo(LifecycleState.DEPLOYED);
    }
  }

  @Test
  void stateChangesPersistAcrossReopen() {
    try (MapDbStore store = new MapDbStore(new StoreOptions(dir))) {
      store.recordObserved(NODE, List.of(new Gpu(0, "GPU-a", "H100")), T0);
      store.setState(NODE, LifecycleState.BROKEN);
    }
    try (MapDbStore store = new MapDbStore(new StoreOptions(dir))) {
      assertThat(store.node(NODE)).map(Node::state).contains(LifecycleState.BROKEN);
      assertThat(store.nodes()).hasSize(1);
    }
  }

  @Test
  void settingTheStateOfAnUnknownNodeSaysWhichNode() {
    try (MapDbStore store = new MapDbStore(new StoreOptions(dir))) {
      assertThatThrownBy(() -> store.setState(NodeId.of("ghost"), LifecycleState.READY))
          .isInstanceOf(NoSuchElementException.class)
          .hasMessageContaining("ghost");
    }
  }

  @Test
  void findingsAreQueriedByStateKindAndNodeNewestFirst() {
    try (MapDbStore store = new MapDbStore(new StoreOptions(dir))) {
      Finding xid = finding("f1", "xid", NODE, FindingState.OPEN, T0);
      Finding thermal =
          finding("f2", "thermal-throttle", NODE, FindingState.OPEN, T0.plusSeconds(5));
      Finding other =
          finding("f3", "xid", NodeId.of("gpu-node-002"), FindingState.OPEN, T0.plusSeconds(9));
      store.save(xid);
      store.save(thermal);
      store.save(other);
      store.save(thermal.resolve(T0.plusSeconds(30)));

      assertThat(store.find(FindingQuery.open()))
          .extracting(Finding::id)
          .containsExactly("f3", "f1");
      assertThat(store.find(FindingQuery.all().withState(FindingState.RESOLVED)))
          .extracting(Finding::id)
          .containsExactly("f2");
      assertThat(store.find(FindingQuery.all().withKind("xid").withNode(NODE)))
          .extracting(Finding::id)
          .containsExactly("f1");
      assertThat(store.find(FindingQuery.all().withLimit(1)))
          .extracting(Finding::id)
          .containsExactly("f3");
      assertThat(store.get("f2")).map(Finding::resolvedAt).contains(T0.plusSeconds(30));
      assertThat(store.get("missing")).isEmpty();
    }
  }

  @Test
  void aFindingRoundTripsEveryField() {
    try (MapDbStore store = new MapDbStore(new StoreOptions(dir))) {
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
      store.save(f);
      assertThat(store.get("id-1")).contains(f);
    }
  }

  @Test
  void aSecondStoreOnTheSameFolderIsRefusedWithAClearMessage() {
    try (MapDbStore store = new MapDbStore(new StoreOptions(dir))) {
      assertThatThrownBy(() -> new MapDbStore(new StoreOptions(dir)))
          .hasMessageContaining(dir.toString())
          .hasMessageContaining("BULWARK_DATA_DIR");
    }
  }

  @Test
  void anEmptyDataDirSettingIsRefusedNamingTheSetting() {
    StoreConfig blank =
        new StoreConfig() {
          @Override
          public String dataDir() {
            return " ";
          }

          @Override
          public long minFreeMegabytes() {
            return 256;
          }

          @Override
          public int cacheMegabytes() {
            return 32;
          }

          @Override
          public Class<StoreConfig> annotationType() {
            return StoreConfig.class;
          }
        };
    assertThatThrownBy(() -> StoreOptions.from(blank)).hasMessageContaining("dataDir");
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
