package io.bulwark.inventory.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.bulwark.api.fleet.Gpu;
import io.bulwark.api.fleet.Node;
import io.bulwark.api.fleet.NodeId;
import io.bulwark.store.internal.MapDbRecordStore;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The inventory on the real store: its merge rules, and that it persists across a reopen. */
class StoreInventoryTest {
  private static final NodeId NODE = NodeId.of("gpu-node-001");
  private static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");

  @TempDir Path dir;

  @Test
  void theInventoryNeverForgetsAGpuAndRefreshesWhatTelemetryReports() {
    try (MapDbRecordStore store = MapDbRecordStore.inFolder(dir)) {
      StoreInventory inventory = new StoreInventory(store);
      inventory.recordObserved(
          NODE, List.of(new Gpu(0, "GPU-a", "H100"), new Gpu(1, "GPU-b", "H100")), T0);
      Node later =
          inventory.recordObserved(
              NODE, List.of(new Gpu(1, "", ""), new Gpu(2, "GPU-c", "H200")), T0.plusSeconds(60));

      assertThat(later.gpus()).extracting(Gpu::index).containsExactly(0, 1, 2);
      assertThat(later.gpu(1)).contains(new Gpu(1, "GPU-b", "H100"));
      assertThat(later.gpu(2)).contains(new Gpu(2, "GPU-c", "H200"));
      assertThat(later.firstSeen()).isEqualTo(T0);
      assertThat(later.lastSeen()).isEqualTo(T0.plusSeconds(60));
    }
  }

  @Test
  void nodesPersistSortedByIdAndARemovedNodeStaysRemovedAcrossAReopen() {
    try (MapDbRecordStore store = MapDbRecordStore.inFolder(dir)) {
      StoreInventory inventory = new StoreInventory(store);
      for (String id : List.of("gpu-node-010", "gpu-node-002", "ghost-exporter")) {
        inventory.recordObserved(NodeId.of(id), List.of(new Gpu(0, "GPU-" + id, "H100")), T0);
      }
      assertThat(inventory.remove(NodeId.of("ghost-exporter"))).isTrue();
      assertThat(inventory.remove(NodeId.of("ghost-exporter"))).isFalse();
    }
    try (MapDbRecordStore store = MapDbRecordStore.inFolder(dir)) {
      StoreInventory inventory = new StoreInventory(store);
      assertThat(inventory.nodes())
          .extracting(n -> n.id().value())
          .containsExactly("gpu-node-002", "gpu-node-010");
      assertThat(inventory.node(NodeId.of("gpu-node-010")).orElseThrow().gpu(0))
          .contains(new Gpu(0, "GPU-gpu-node-010", "H100"));
      assertThat(inventory.node(NodeId.of("ghost-exporter"))).isEmpty();
    }
  }
}
