package io.bulwark.sim.internal;

import io.bulwark.lib.exposition.ExpositionText;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The simulated fleet: its nodes, the identity and profile of every GPU, and the dcgm-exporter page
 * each node serves at a given instant, with the faults of {@link FaultBook} applied. Every page is
 * computed afresh from the seed, the time and the faults (held and cleared), so values evolve with
 * the clock, counters never fall, and two fleets with the same seed agree. Every eighth node runs
 * an older exporter (the clock reasons under their former name); a few nodes sit idle. Thread-safe.
 */
final class SimulatedFleet {
  static final String DRIVER_VERSION = "550.90.07";
  static final String OLDER_DRIVER_VERSION = "535.183.01";

  private static final String[] DGX_BUS_NUMBERS = {"18", "2A", "3A", "5D", "9A", "AB", "BA", "DB"};
  private static final int UUID_HIGH = 300;
  private static final int UUID_LOW = 301;

  private final List<String> nodes;
  private final Map<String, Integer> index;
  private final int gpusPerNode;
  private final GpuModel model;
  private final FaultBook faults;
  private final GpuProfile[][] profiles;
  private final String[][] labels;
  private final Metric[] served;

  /** A fleet whose nodes serve every field the simulator models. */
  SimulatedFleet(
      int nodeCount,
      int gpusPerNode,
      String nodePrefix,
      long seed,
      long startMillis,
      FaultBook faults) {
    this(nodeCount, gpusPerNode, nodePrefix, seed, startMillis, faults, Metric.values());
  }

  /** A fleet whose nodes serve the fields {@code served}, in that order. */
  SimulatedFleet(
      int nodeCount,
      int gpusPerNode,
      String nodePrefix,
      long seed,
      long startMillis,
      FaultBook faults,
      Metric[] served) {
    this.served = served.clone();
    this.gpusPerNode = gpusPerNode;
    this.faults = faults;
    this.model = new GpuModel(new Noise(seed), startMillis);
    int width = Math.max(3, Integer.toString(nodeCount).length());
    List<String> names = new ArrayList<>(nodeCount);
    Map<String, Integer> byName = new HashMap<>();
    profiles = new GpuProfile[nodeCount][gpusPerNode];
    labels = new String[nodeCount][gpusPerNode];
    for (int n = 0; n < nodeCount; n++) {
      String name = nodePrefix + String.format(Locale.ROOT, "%0" + width + "d", n + 1);
      names.add(name);
      byName.put(name, n);
      for (int g = 0; g < gpusPerNode; g++) {
        profiles[n][g] = model.profile(n, g, isIdle(n));
        labels[n][g] = labels(name, n, g);
      }
    }
    this.nodes = List.copyOf(names);
    this.index = Map.copyOf(byName);
  }

  /** Returns the node names, in order. */
  List<String> nodes() {
    return nodes;
  }

  int gpusPerNode() {
    return gpusPerNode;
  }

  boolean hasNode(String node) {
    return index.containsKey(node);
  }

  /**
   * Returns true if the node with this index (0-based) runs no job: every sixteenth node, the tenth
   * first.
   */
  static boolean isIdle(int node) {
    return (node + 1) % 16 == 10;
  }

  /**
   * Returns true if the node with this index (0-based) runs an older dcgm-exporter: every eighth
   * node.
   */
  static boolean runsOlderExporter(int node) {
    return (node + 1) % 8 == 0;
  }

  /**
   * Returns the page of {@code node} at {@code nowMillis}, or empty if the fleet has no such node.
   */
  Optional<String> page(String node, long nowMillis) {
    Integer n = index.get(node);
    if (n == null) {
      return Optional.empty();
    }
    double[][] values = new double[gpusPerNode][Metric.COUNT];
    boolean[] present = new boolean[gpusPerNode];
    Arrays.fill(present, true);
    FaultBook.Snapshot view = faults.view();
    for (int g = 0; g < gpusPerNode; g++) {
      double[] v = values[g];
      model.healthy(profiles[n][g], nowMillis, v);
      boolean counted = false;
      for (List<Fault> list : List.of(view.cleared(), view.held())) {
        for (Fault fault : list) {
          if (fault.on(node, g)) {
            FaultEffects.accumulate(fault, nowMillis, v);
            counted = true;
          }
        }
      }
      if (counted) {
        GpuModel.spareRowBanks(v);
      }
      for (Fault fault : view.held()) {
        if (fault.on(node, g) && fault.activeAt(nowMillis)) {
          present[g] &= FaultEffects.apply(fault, profiles[n][g], model.noise(), nowMillis, v);
        }
      }
    }
    return Optional.of(
        MetricsPage.render(runsOlderExporter(n), labels[n], values, present, served));
  }

  /**
   * Returns the {@code telemetry-stale} fault that silences {@code node} at {@code nowMillis}, or
   * empty if the node answers.
   */
  Optional<Fault> silence(String node, long nowMillis) {
    for (Fault fault : faults.snapshot()) {
      if (fault.kind() == FaultKind.TELEMETRY_STALE
          && fault.node().equals(node)
          && fault.activeAt(nowMillis)) {
        return Optional.of(fault);
      }
    }
    return Optional.empty();
  }

  private String labels(String name, int n, int g) {
    long key = GpuModel.key(n, g);
    String uuid =
        uuid(
            model.noise().bits(key, UUID_HIGH, Noise.CONSTANT),
            model.noise().bits(key, UUID_LOW, Noise.CONSTANT));
    String bus =
        g < DGX_BUS_NUMBERS.length
            ? DGX_BUS_NUMBERS[g]
            : String.format(Locale.ROOT, "%02X", 0x20 + (g - DGX_BUS_NUMBERS.length) * 0x1C);
    String driver = runsOlderExporter(n) ? OLDER_DRIVER_VERSION : DRIVER_VERSION;
    return "gpu=\""
        + g
        + "\",UUID=\""
        + uuid
        + "\",pci_bus_id=\"00000000:"
        + bus
        + ":00.0\",device=\"nvidia"
        + g
        + "\",modelName=\""
        + GpuModel.MODEL_NAME
        + "\",Hostname=\""
        + ExpositionText.escapeLabelValue(name)
        + "\",DCGM_FI_DRIVER_VERSION=\""
        + driver
        + "\"";
  }

  private static String uuid(long high, long low) {
    String hex = String.format(Locale.ROOT, "%016x%016x", high, low);
    return "GPU-"
        + hex.substring(0, 8)
        + "-"
        + hex.substring(8, 12)
        + "-"
        + hex.substring(12, 16)
        + "-"
        + hex.substring(16, 20)
        + "-"
        + hex.substring(20);
  }
}
