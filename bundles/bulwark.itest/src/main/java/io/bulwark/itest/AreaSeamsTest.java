package io.bulwark.itest;

import static org.assertj.core.api.Assertions.assertThat;

import io.bulwark.api.fleet.FleetRepository;
import io.bulwark.api.fleet.Gpu;
import io.bulwark.api.fleet.NodeId;
import io.bulwark.api.health.Finding;
import io.bulwark.api.health.FindingKind;
import io.bulwark.api.health.FindingQuery;
import io.bulwark.api.health.HealthService;
import io.bulwark.api.store.RecordFormat;
import io.bulwark.api.store.RecordStore;
import io.bulwark.api.store.Records;
import io.bulwark.api.store.StoreMap;
import io.bulwark.api.store.WritePriority;
import io.bulwark.api.telemetry.DcgmField;
import io.bulwark.api.telemetry.IngestReceipt;
import io.bulwark.api.telemetry.Reading;
import io.bulwark.api.telemetry.SeriesId;
import io.bulwark.api.telemetry.TelemetryBatch;
import io.bulwark.api.telemetry.TelemetryIngest;
import io.bulwark.api.telemetry.TelemetryQuery;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.osgi.test.common.annotation.InjectService;
import org.osgi.test.junit5.service.ServiceExtension;

/**
 * A new area plugs into the store and telemetry through their services alone, as this test bundle
 * does: it keeps records of its own in a map of the store, in one transaction across two maps, and
 * pushes readings that the detectors judge and the inventory records as they do a scrape.
 */
@ExtendWith(ServiceExtension.class)
class AreaSeamsTest {
  /** A rack of the test's own area: its name and how many machines it holds. */
  record Rack(String name, int machines) {}

  static final class RackFormat implements RecordFormat<Rack> {
    @Override
    public int version() {
      return 1;
    }

    @Override
    public void write(Rack value, DataOutputStream out) throws IOException {
      out.writeUTF(value.name());
      out.writeInt(value.machines());
    }

    @Override
    public Rack read(int version, DataInputStream in) throws IOException {
      if (version != 1) {
        throw Records.unknownVersion("rack", version, 1);
      }
      return new Rack(in.readUTF(), in.readInt());
    }
  }

  @Test
  void anAreaKeepsItsOwnRecordsInTheStoreInOneTransaction(
      @InjectService(timeout = 10_000) RecordStore store) {
    StoreMap<String, Rack> racks = StoreMap.byName("itest.racks", new RackFormat());
    StoreMap<Long, Rack> history = StoreMap.byNumber("itest.racks.history", new RackFormat());
    store.write(
        "save rack r07",
        WritePriority.ROUTINE,
        s -> {
          s.map(racks).put("r07", new Rack("r07", 16));
          s.map(history).put(1L, new Rack("r07", 16));
          return null;
        });
    Rack rack = store.read(s -> s.map(racks).get("r07"));
    int changes = store.read(s -> s.map(history).size());
    assertThat(rack).isEqualTo(new Rack("r07", 16));
    assertThat(changes).isEqualTo(1);
  }

  @Test
  void readingsABundlePushesAreJudgedByTheDetectorsAndRecordedInTheInventory(
      @InjectService(timeout = 10_000) TelemetryIngest ingest,
      @InjectService(timeout = 10_000) TelemetryQuery telemetry,
      @InjectService(timeout = 10_000) HealthService health,
      @InjectService(timeout = 10_000) FleetRepository fleet)
      throws InterruptedException {
    NodeId node = NodeId.of("itest-pushed-7");
    List<Gpu> gpus = List.of(new Gpu(0, "GPU-itest-pushed-7", "NVIDIA H100 80GB HBM3"));
    long deadline = System.currentTimeMillis() + 30_000;
    List<Finding> xid = List.of();
    while (xid.isEmpty() && System.currentTimeMillis() < deadline) {
      long now = System.currentTimeMillis();
      IngestReceipt receipt =
          ingest.push(
              new TelemetryBatch(
                  "itest-agent",
                  node,
                  now,
                  gpus,
                  List.of(
                      new Reading(0, DcgmField.XID_ERRORS, now, 79),
                      new Reading(0, DcgmField.GPU_TEMP, now, 64))));
      assertThat(receipt.complete()).as("receipt %s", receipt).isTrue();
      Thread.sleep(500);
      xid = health.findings(FindingQuery.open().withKind(FindingKind.XID).withNode(node));
    }
    assertThat(xid).as("the xid detector judged the pushed readings").singleElement();
    // The finding names the GPU's UUID once the inventory has recorded the pushed GPU list, which
    // it does beside the detectors: a finding opened first gets it at its next evaluation.
    HotSwapTest.await(
        () ->
            health.findings(FindingQuery.open().withKind(FindingKind.XID).withNode(node)).stream()
                .anyMatch(f -> f.gpuUuid().equals("GPU-itest-pushed-7")),
        "the xid finding names the pushed GPU's UUID");
    assertThat(telemetry.latest(SeriesId.of(node, 0, DcgmField.GPU_TEMP)).value()).isEqualTo(64);
    HotSwapTest.await(() -> fleet.node(node).isPresent(), "the inventory recorded the node");
    assertThat(fleet.node(node).orElseThrow().gpus()).isEqualTo(gpus);
  }
}
