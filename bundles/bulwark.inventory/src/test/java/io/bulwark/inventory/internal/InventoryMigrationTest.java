package io.bulwark.inventory.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.bulwark.api.fleet.Gpu;
import io.bulwark.api.fleet.Node;
import io.bulwark.api.fleet.NodeId;
import io.bulwark.store.internal.MapDbRecordStore;
import io.bulwark.testing.LegacyStore;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A data folder written by Bulwark 0.1 (one store component, nodes with a life-cycle state) opens
 * with its inventory as it was; a node written again is written in today's format and reads back
 * after a reopen, beside those still in the old one.
 */
class InventoryMigrationTest {
  private static final String MODEL = "NVIDIA H100 80GB HBM3";

  @TempDir Path dir;

  @Test
  void theInventoryOfA01DataFolderReadsAsItWasAndIsWrittenInTodaysFormat() {
    LegacyStore.unpack(dir);
    Instant seen = Instant.parse("2026-11-30T10:00:00Z");
    try (MapDbRecordStore store = MapDbRecordStore.inFolder(dir)) {
      StoreInventory inventory = new StoreInventory(store);
      assertThat(inventory.nodes())
          .containsExactly(
              new Node(
                  NodeId.of("gpu-node-001"),
                  List.of(new Gpu(0, "GPU-aaaa", MODEL), new Gpu(1, "GPU-bbbb", MODEL)),
                  seen,
                  seen),
              new Node(
                  NodeId.of("gpu-node-002"),
                  List.of(new Gpu(0, "GPU-cccc", MODEL)),
                  seen.plusSeconds(60),
                  seen.plusSeconds(60)));
      inventory.recordObserved(
          NodeId.of("gpu-node-002"), List.of(new Gpu(1, "GPU-dddd", MODEL)), seen.plusSeconds(120));
    }
    try (MapDbRecordStore store = MapDbRecordStore.inFolder(dir)) {
      StoreInventory inventory = new StoreInventory(store);
      assertThat(inventory.node(NodeId.of("gpu-node-002")).orElseThrow().gpus())
          .extracting(Gpu::uuid)
          .containsExactly("GPU-cccc", "GPU-dddd");
      assertThat(inventory.node(NodeId.of("gpu-node-001")).orElseThrow().gpus()).hasSize(2);
    }
  }
}
