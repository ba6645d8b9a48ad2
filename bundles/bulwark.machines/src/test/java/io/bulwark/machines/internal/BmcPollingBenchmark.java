package io.bulwark.machines.internal;

import io.bulwark.api.machine.BmcEndpoint;
import io.bulwark.api.machine.BmcProtocol;
import io.bulwark.api.machine.Machine;
import io.bulwark.api.machine.MachineId;
import io.bulwark.api.machine.MachineOperation;
import io.bulwark.api.machine.MachineState;
import io.bulwark.api.machine.NewMachine;
import io.bulwark.bmc.redfish.internal.RedfishDriver;
import io.bulwark.sim.internal.SimulatedBmcs;
import io.bulwark.store.internal.MapDbRecordStore;
import io.bulwark.testing.FipsProviders;
import io.bulwark.testing.InMemorySecrets;
import io.bulwark.testing.receivers.TestCertificates;
import io.vertx.core.Vertx;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Benchmark harness (not a test; run by hand, see docs/benchmarks.md): the real machine registry
 * and Redfish driver poll {@code N} simulated BMCs (the simulator's Redfish services, each on a
 * loopback address of its own) for power, sensors and the event log, with every request taking 1-4
 * s and 1% of requests never answered, as slow and fragile BMCs do. Prints, per cycle, the time
 * until every BMC's poll ended, how long the fastest and the slowest took, how many failed, the BMC
 * threads and the heap after a full GC.
 *
 * <p>Arguments: BMCS (2000), THREADS (the registry's BMC threads, 256), CYCLES (2), MIN_MS (1000),
 * MAX_MS (4000), HANG (0.01).
 */
public final class BmcPollingBenchmark {
  private BmcPollingBenchmark() {}

  public static void main(String[] args) throws Exception {
    int bmcs = arg(args, 0, 2000);
    int threads = arg(args, 1, 256);
    int cycles = arg(args, 2, 2);
    long minMs = arg(args, 3, 1000);
    long maxMs = arg(args, 4, 4000);
    double hang = args.length > 5 ? Double.parseDouble(args[5]) : 0.01;
    FipsProviders.install();
    Path dir = Files.createTempDirectory("bmc-bench");
    TestCertificates tls = TestCertificates.create(dir.resolve("tls"));
    Vertx vertx = Vertx.vertx();
    List<String> nodes = new ArrayList<>();
    for (int i = 1; i <= bmcs; i++) {
      nodes.add(String.format(Locale.ROOT, "bench-%04d", i));
    }
    SimulatedBmcs sim =
        new SimulatedBmcs(
            vertx,
            nodes,
            8,
            42,
            tls.serverKeyManagersFips(),
            new SimulatedBmcs.Options(0, "bench", "Bench-Pass-1", 0, 0, 0, 500),
            Clock.systemUTC());
    Map<MachineState, Duration> timeouts = new EnumMap<>(MachineState.class);
    for (MachineState s : MachineState.values()) {
      if (s.isTransient()) {
        timeouts.put(s, Duration.ofHours(1));
      }
    }
    // The driver's production defaults: 5 s to connect, 10 s a request.
    RedfishDriver driver =
        RedfishDriver.withTimeouts(
            Duration.ofSeconds(5),
            Duration.ofSeconds(10),
            Duration.ofSeconds(60),
            Duration.ofSeconds(60));
    try (MapDbRecordStore store = MapDbRecordStore.inFolder(dir.resolve("store"))) {
      MachineRegistry registry =
          new MachineRegistry(store, new InMemorySecrets(), timeouts, Clock.systemUTC(), threads);
      registry.bindDriver(driver);
      long gcBaseline = heapAfterGc();
      // Setup at full speed, in batches (this machine also runs the BMCs): add, probe, pin (an
      // admin's approval of each fingerprint), and the first poll each pin starts.
      List<SimulatedBmcs.Endpoint> endpoints = sim.endpoints();
      int pinned = 0;
      for (int from = 0; from < endpoints.size(); from += SETUP_BATCH) {
        List<SimulatedBmcs.Endpoint> batch =
            endpoints.subList(from, Math.min(endpoints.size(), from + SETUP_BATCH));
        for (SimulatedBmcs.Endpoint e : batch) {
          registry.add(
              new NewMachine(
                  MachineId.of(e.node()),
                  e.node(),
                  List.of(),
                  new BmcEndpoint(BmcProtocol.REDFISH, e.address(), e.port(), "", ""),
                  "",
                  "",
                  Set.of(),
                  null),
              "bench",
              "Bench-Pass-1".toCharArray(),
              "bench");
        }
        for (int attempt = 0; attempt < 3; attempt++) {
          for (SimulatedBmcs.Endpoint e : batch) {
            Machine m = registry.machine(MachineId.of(e.node())).orElseThrow();
            if (m.presentedSha256().isEmpty() && m.bmc().pinnedSha256().isEmpty()) {
              registry.operate(m.id(), MachineOperation.PROBE, "bench", "bench");
            }
          }
          awaitIdle(registry, batch);
        }
        Map<MachineId, BmcWork.Poll> before = snapshot(registry);
        for (SimulatedBmcs.Endpoint e : batch) {
          Machine m = registry.machine(MachineId.of(e.node())).orElseThrow();
          if (!m.presentedSha256().isEmpty()) {
            registry.pinCertificate(m.id(), m.presentedSha256(), "bench");
            pinned++;
          }
        }
        waitForPolls(registry, before, batch, Duration.ofMinutes(2));
      }
      System.out.printf(
          Locale.ROOT,
          "SETUP bmcs=%d pinned=%d threads=%d latency=%d-%d ms hang=%.3f%n",
          bmcs,
          pinned,
          threads,
          minMs,
          maxMs,
          hang);
      sim.behave(minMs, maxMs, hang);
      for (int c = 1; c <= cycles; c++) {
        Map<MachineId, BmcWork.Poll> before = snapshot(registry);
        long[] counts0 = sim.counts();
        long t0 = System.nanoTime();
        int started = registry.pollAll();
        long[] ends = waitForPolls(registry, before, endpoints, Duration.ofMinutes(30));
        double seconds = (System.nanoTime() - t0) / 1e9;
        long failed = 0;
        for (Machine m : registry.machines()) {
          BmcWork.Poll p = registry.lastPoll(m.id()).orElse(null);
          if (p != null && !p.error().isEmpty()) {
            failed++;
          }
        }
        long[] counts1 = sim.counts();
        long bmcThreads =
            Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().equals("bulwark-bmc"))
                .count();
        System.out.printf(
            Locale.ROOT,
            "CYCLE %d started=%d cycle_s=%.1f first_done_s=%.1f median_done_s=%.1f failed=%d"
                + " requests=%d unanswered=%d bmc_threads=%d jvm_threads=%d heap_mib=%.0f%n",
            c,
            started,
            seconds,
            ends[0] / 1e9,
            ends[1] / 1e9,
            failed,
            counts1[0] - counts0[0],
            counts1[1] - counts0[1],
            bmcThreads,
            ManagementFactory.getThreadMXBean().getThreadCount(),
            (heapAfterGc() - gcBaseline) / 1048576.0);
      }
    } finally {
      sim.close();
      vertx.close();
    }
    System.exit(0);
  }

  private static final int SETUP_BATCH = 50;

  private static void awaitIdle(MachineRegistry r, List<SimulatedBmcs.Endpoint> batch)
      throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
    while (System.nanoTime() < deadline
        && batch.stream()
            .anyMatch(e -> !r.machine(MachineId.of(e.node())).orElseThrow().pending().isEmpty())) {
      Thread.sleep(50);
    }
  }

  private static Map<MachineId, BmcWork.Poll> snapshot(MachineRegistry r) {
    Map<MachineId, BmcWork.Poll> s = new java.util.HashMap<>();
    for (Machine m : r.machines()) {
      r.lastPoll(m.id()).ifPresent(p -> s.put(m.id(), p));
    }
    return s;
  }

  /**
   * Waits until every machine has a newer poll than in {@code before}; returns the nanoseconds
   * after the start when the first and the median ended.
   */
  private static long[] waitForPolls(
      MachineRegistry r,
      Map<MachineId, BmcWork.Poll> before,
      List<SimulatedBmcs.Endpoint> which,
      Duration limit)
      throws InterruptedException {
    long t0 = System.nanoTime();
    Map<MachineId, Long> done = new java.util.HashMap<>();
    List<Machine> all =
        which.stream().map(e -> r.machine(MachineId.of(e.node())).orElseThrow()).toList();
    IdentityHashMap<BmcWork.Poll, Boolean> old = new IdentityHashMap<>();
    before.values().forEach(p -> old.put(p, true));
    while (done.size() < all.size() && System.nanoTime() - t0 < limit.toNanos()) {
      for (Machine m : all) {
        if (!done.containsKey(m.id())) {
          BmcWork.Poll p = r.lastPoll(m.id()).orElse(null);
          if (p != null && !old.containsKey(p)) {
            done.put(m.id(), System.nanoTime() - t0);
          }
        }
      }
      Thread.sleep(50);
    }
    long[] times = done.values().stream().mapToLong(Long::longValue).sorted().toArray();
    return times.length == 0 ? new long[] {0, 0} : new long[] {times[0], times[times.length / 2]};
  }

  private static long heapAfterGc() {
    System.gc();
    System.gc();
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }

  private static int arg(String[] args, int i, int fallback) {
    return args.length > i ? Integer.parseInt(args[i]) : fallback;
  }
}
