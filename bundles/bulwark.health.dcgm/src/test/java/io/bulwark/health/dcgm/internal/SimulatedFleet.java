package io.bulwark.health.dcgm.internal;

import io.bulwark.api.fleet.Gpu;
import io.bulwark.api.fleet.Node;
import io.bulwark.api.fleet.NodeId;
import io.bulwark.api.health.DetectionContext;
import io.bulwark.api.telemetry.DcgmField;
import io.bulwark.api.telemetry.TelemetryQuery;
import io.bulwark.testing.InMemoryTelemetry;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * A fleet for the detector tests, sampled once a second like the simulator and dcgm-exporter: busy,
 * sound GPUs with a little seeded noise, unless a test overrides metrics of chosen GPUs from a
 * chosen time.
 */
final class SimulatedFleet {
  static final long START = 1_700_000_000_000L;

  /** Overrides the sound value of a metric; return null to keep it, NaN to leave the sample out. */
  interface Fault {
    Double value(NodeId node, int gpu, String metric, long secondsSinceStart, double sound);
  }

  final InMemoryTelemetry telemetry = new InMemoryTelemetry();
  private final List<Node> inventory = new ArrayList<>();
  private final Map<NodeId, Set<Integer>> dropped = new HashMap<>();
  private final Random random = new Random(42);
  private final List<Fault> faults = new ArrayList<>();
  private long now = START;

  SimulatedFleet(int nodes, int gpusPerNode, String model) {
    add(nodes, gpusPerNode, model, 0);
  }

  /** Adds nodes named gpu-node-NNN from {@code firstIndex}. */
  SimulatedFleet add(int nodes, int gpusPerNode, String model, int firstIndex) {
    for (int n = firstIndex; n < firstIndex + nodes; n++) {
      NodeId id = node(n);
      List<Gpu> gpus = new ArrayList<>();
      for (int g = 0; g < gpusPerNode; g++) {
        gpus.add(new Gpu(g, "GPU-" + id.value() + "-" + g, model));
      }
      inventory.add(new Node(id, gpus, Instant.ofEpochMilli(START), Instant.ofEpochMilli(START)));
    }
    return this;
  }

  static NodeId node(int n) {
    return NodeId.of(String.format("gpu-node-%03d", n));
  }

  SimulatedFleet with(Fault fault) {
    faults.add(fault);
    return this;
  }

  /** Makes telemetry stop reporting a GPU from now on (it stays in the inventory). */
  void drop(NodeId node, int gpu) {
    dropped.computeIfAbsent(node, k -> new HashSet<>()).add(gpu);
  }

  /** Advances {@code seconds} seconds, one scrape of every node per second. */
  void run(int seconds) {
    for (int s = 0; s < seconds; s++) {
      now += 1000;
      for (Node node : inventory) {
        List<Gpu> reported = new ArrayList<>();
        for (Gpu gpu : node.gpus()) {
          if (dropped.getOrDefault(node.id(), Set.of()).contains(gpu.index())) {
            continue;
          }
          reported.add(gpu);
          sound(node.id(), gpu.index())
              .forEach(
                  (metric, value) -> {
                    double v = value;
                    for (Fault f : faults) {
                      Double o = f.value(node.id(), gpu.index(), metric, (now - START) / 1000, v);
                      v = o == null ? v : o;
                    }
                    if (!Double.isNaN(v)) {
                      telemetry.add(node.id(), gpu.index(), metric, now, v);
                    }
                  });
        }
        telemetry.report(node.id(), reported, now);
      }
    }
  }

  private Map<String, Double> sound(NodeId node, int gpu) {
    Map<String, Double> m = new HashMap<>();
    m.put(DcgmField.GPU_UTIL, 92 + random.nextGaussian() * 3);
    m.put(DcgmField.SM_CLOCK, (double) Math.round(1980 + random.nextGaussian() * 10));
    m.put(DcgmField.SM_ACTIVE, 0.8 + random.nextGaussian() * 0.02);
    m.put(DcgmField.GPU_TEMP, 64 + random.nextGaussian());
    m.put(DcgmField.CLOCKS_EVENT_REASONS, 0.0);
    m.put(DcgmField.XID_ERRORS, 0.0);
    m.put(DcgmField.ECC_DBE_VOL_TOTAL, 0.0);
    m.put(DcgmField.ECC_DBE_AGG_TOTAL, 0.0);
    m.put(DcgmField.ROW_REMAP_FAILURE, 0.0);
    m.put(DcgmField.ROW_REMAP_PENDING, 0.0);
    m.put(DcgmField.POWER_USAGE, 610.0);
    m.put(DcgmField.POWER_LIMIT, 700.0);
    m.put(DcgmField.ECC_SBE_VOL_TOTAL, 3.0);
    m.put(DcgmField.RETIRED_PENDING, 0.0);
    m.put(DcgmField.RETIRED_SBE, 0.0);
    m.put(DcgmField.RETIRED_DBE, 0.0);
    m.put(DcgmField.BANKS_REMAP_ROWS_AVAIL_LOW, 0.0);
    m.put(DcgmField.BANKS_REMAP_ROWS_AVAIL_NONE, 0.0);
    m.put(DcgmField.PCIE_REPLAY_COUNTER, 12.0);
    m.put(DcgmField.PCIE_LINK_GEN, 5.0);
    m.put(DcgmField.PCIE_MAX_LINK_GEN, 5.0);
    m.put(DcgmField.PCIE_LINK_WIDTH, 16.0);
    m.put(DcgmField.PCIE_MAX_LINK_WIDTH, 16.0);
    m.put(DcgmField.NVLINK_CRC_FLIT_ERRORS, 0.0);
    m.put(DcgmField.NVLINK_CRC_DATA_ERRORS, 0.0);
    m.put(DcgmField.NVLINK_REPLAY_ERRORS, 0.0);
    m.put(DcgmField.NVLINK_RECOVERY_ERRORS, 0.0);
    m.put(DcgmField.SLOWDOWN_TEMP, 87.0);
    m.put(DcgmField.POWER_VIOLATION, 0.0);
    m.put(DcgmField.THERMAL_VIOLATION, 0.0);
    return m;
  }

  long now() {
    return now;
  }

  long secondsSinceStart() {
    return (now - START) / 1000;
  }

  List<Node> inventory() {
    return List.copyOf(inventory);
  }

  DetectionContext context() {
    return new TestContext(telemetry, inventory(), now);
  }

  /** A detection context over this fleet at its current time. */
  record TestContext(TelemetryQuery telemetry, List<Node> inventory, long nowMillis)
      implements DetectionContext {}
}
