package io.bulwark.sim.internal;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The scripted faults of the {@code demo} scenario: after the fleet has run healthy for a while,
 * nine persistent faults of as many kinds (hardware errors, a memory row waiting for a reset,
 * NVLink errors, a downtrained PCIe link, a hot GPU, a straggler, a lost GPU), each on its own busy
 * node at a fixed place and held until deleted; then, every few minutes, one more fault that comes
 * and goes, cycling through the other kinds (a stale node among them), so the UI shows both open
 * and resolved findings of every kind without crowding. Placement depends only on the fleet's size
 * and the seed.
 */
final class DemoScenario {
  /** How long the demo fleet runs healthy before the persistent faults are injected. */
  static final long FIRST_FAULTS_DELAY_MILLIS = 10_000;

  /** Delay from the start to the first coming-and-going fault. */
  static final long FIRST_CYCLE_DELAY_MILLIS = 60_000;

  /** Time between two coming-and-going faults. */
  static final long CYCLE_PERIOD_MILLIS = 240_000;

  /** How long each coming-and-going fault lasts. */
  static final long CYCLE_FAULT_MILLIS = 180_000;

  static final List<FaultKind> PERSISTENT =
      List.of(
          FaultKind.XID,
          FaultKind.ECC_DBE,
          FaultKind.ROW_REMAP_FAILURE,
          FaultKind.NVLINK_ERRORS,
          FaultKind.PCIE_DOWNTRAINED,
          FaultKind.THERMAL_THROTTLE,
          FaultKind.POWER_THROTTLE,
          FaultKind.STRAGGLER,
          FaultKind.GPU_MISSING);

  static final List<FaultKind> CYCLE =
      List.of(
          FaultKind.PCIE_REPLAY,
          FaultKind.THERMAL_MARGIN,
          FaultKind.SBE_STORM,
          FaultKind.TELEMETRY_STALE,
          FaultKind.ROW_REMAP_PENDING,
          FaultKind.XID,
          FaultKind.SPARE_ROWS_LOW,
          FaultKind.RETIRED_PAGES_PENDING);

  /** The XID codes the cycle's {@code xid} faults show in turn, all of them hardware XIDs. */
  static final int[] CYCLE_XIDS = {95, 48, 119, 79};

  private static final int PICK = 400;

  private final SimulatedFleet fleet;
  private final FaultBook faults;
  private final Noise noise;
  private final AtomicInteger round = new AtomicInteger();
  private final Set<String> persistentNodes = new HashSet<>();

  DemoScenario(SimulatedFleet fleet, FaultBook faults, long seed) {
    this.fleet = fleet;
    this.faults = faults;
    this.noise = new Noise(seed);
  }

  /**
   * Injects the persistent faults, one of each of their kinds on distinct GPUs (distinct busy nodes
   * where there are).
   */
  synchronized List<Fault> start(long nowMillis) {
    int nodes = fleet.nodes().size();
    int gpus = fleet.gpusPerNode();
    Set<Long> taken = new HashSet<>();
    List<Fault> injected = new ArrayList<>();
    for (int k = 0; k < PERSISTENT.size(); k++) {
      long place = place((2 + 9 * k) % nodes, (1 + 3 * k) % gpus, nodes, gpus, taken);
      if (place < 0) {
        break;
      }
      taken.add(place);
      int node = (int) (place / gpus);
      int gpu = (int) (place % gpus);
      persistentNodes.add(fleet.nodes().get(node));
      injected.add(
          faults.add(
              fleet.nodes().get(node), gpu, PERSISTENT.get(k), nowMillis, Fault.UNTIL_DELETED));
    }
    return injected;
  }

  /**
   * Injects the next coming-and-going fault, lasting {@link #CYCLE_FAULT_MILLIS}, on a busy node
   * without a persistent fault (any busy node if there is none such).
   */
  synchronized Fault cycle(long nowMillis) {
    int r = round.getAndIncrement();
    List<String> candidates = new ArrayList<>();
    List<String> busy = new ArrayList<>();
    for (int n = 0; n < fleet.nodes().size(); n++) {
      if (!SimulatedFleet.isIdle(n)) {
        busy.add(fleet.nodes().get(n));
        if (!persistentNodes.contains(fleet.nodes().get(n))) {
          candidates.add(fleet.nodes().get(n));
        }
      }
    }
    List<String> from = candidates.isEmpty() ? (busy.isEmpty() ? fleet.nodes() : busy) : candidates;
    String node =
        from.get((int) Math.floorMod(noise.bits(r, PICK, Noise.CONSTANT), (long) from.size()));
    int gpu =
        (int) Math.floorMod(noise.bits(r, PICK + 1, Noise.CONSTANT), (long) fleet.gpusPerNode());
    FaultKind kind = CYCLE.get(r % CYCLE.size());
    double value =
        kind == FaultKind.XID
            ? CYCLE_XIDS[(r / CYCLE.size()) % CYCLE_XIDS.length]
            : kind.defaultValue();
    return faults.add(node, gpu, kind, value, nowMillis, CYCLE_FAULT_MILLIS);
  }

  /**
   * Returns the place (node * gpus + gpu) for a persistent fault, starting at the given node and
   * GPU: first a busy node without one, then any free GPU on a busy node, then any free GPU; -1 if
   * every GPU holds one.
   */
  private static long place(int node, int gpu, int nodes, int gpus, Set<Long> taken) {
    Set<Integer> usedNodes = new HashSet<>();
    taken.forEach(p -> usedNodes.add((int) (p / gpus)));
    for (int i = 0; i < nodes; i++) {
      int n = (node + i) % nodes;
      if (!SimulatedFleet.isIdle(n) && !usedNodes.contains(n)) {
        return (long) n * gpus + gpu;
      }
    }
    for (int pass = 0; pass < 2; pass++) {
      for (int i = 0; i < nodes * gpus; i++) {
        long p = ((long) node * gpus + gpu + i) % ((long) nodes * gpus);
        boolean busy = !SimulatedFleet.isIdle((int) (p / gpus));
        if (!taken.contains(p) && (busy || pass == 1)) {
          return p;
        }
      }
    }
    return -1;
  }
}
