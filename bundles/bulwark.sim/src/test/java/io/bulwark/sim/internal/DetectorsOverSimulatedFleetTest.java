package io.bulwark.sim.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.bulwark.api.health.Detector;
import io.bulwark.api.health.FindingKind;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Given the simulated fleet scraped every second and judged every two seconds by the real detectors
 * with their default settings, on a virtual clock: healthy GPUs raise nothing, and every injected
 * fault raises the finding its kind names, on its GPU (its node, for a stale node), after it began.
 */
class DetectorsOverSimulatedFleetTest {
  static final long START = SimulatedFleetTest.START;
  static final long FIRST_FAULTS = START + DemoScenario.FIRST_FAULTS_DELAY_MILLIS;

  @Test
  void theDetectorsCoverEveryBuiltInKind() {
    assertThat(DetectorRun.defaultDetectors())
        .extracting(Detector::name)
        .containsExactlyInAnyOrderElementsOf(FindingKind.BUILT_IN);
  }

  /**
   * Over nodes that serve only the fields of Bulwark's counters file, every kind of fault is still
   * found, and every field the file asks for is read by a detector or charted on the node page.
   */
  @Test
  void everyFaultKindRaisesItsFindingAndNothingElseDoes() {
    FaultBook faults = new FaultBook();
    SimulatedFleet fleet =
        new SimulatedFleet(20, 8, "gpu-node-", 7, START, faults, Metric.COUNTERS_FILE);
    List<Fault> injected = new ArrayList<>();
    int seconds = 140;
    DetectorRun run = new DetectorRun(fleet, seconds);

    run.run(
        START,
        seconds,
        now -> {
          if (now == FIRST_FAULTS) {
            int node = 0;
            for (FaultKind kind : FaultKind.values()) {
              while (SimulatedFleet.isIdle(node)) {
                node++;
              }
              injected.add(
                  faults.add(
                      fleet.nodes().get(node), (node * 3) % 8, kind, now, Fault.UNTIL_DELETED));
              node++;
            }
          }
        });

    assertThat(injected).hasSize(FaultKind.values().length);
    assertRaisedExactly(run, injected);
    Set<String> read = new TreeSet<>(run.metricsRead());
    read.addAll(CountersFileTest.CHARTED);
    assertThat(read)
        .as("read by a detector or charted")
        .containsAll(Arrays.stream(Metric.COUNTERS_FILE).map(m -> m.field(false)).toList());
  }

  @Test
  void theDemoFleetShowsEachOfItsFaultsAndItsHealthyGpusRaiseNothing() {
    FaultBook faults = new FaultBook();
    SimulatedFleet fleet = new SimulatedFleet(64, 8, "gpu-node-", 42, START, faults);
    DemoScenario demo = new DemoScenario(fleet, faults, 42);
    List<Fault> injected = new ArrayList<>();
    int seconds = 140;
    DetectorRun run = new DetectorRun(fleet, seconds);

    run.run(
        START,
        seconds,
        now -> {
          if (now == FIRST_FAULTS) {
            injected.addAll(demo.start(now));
          }
          if (now == START + DemoScenario.FIRST_CYCLE_DELAY_MILLIS) {
            injected.add(demo.cycle(now));
          }
        });

    assertThat(injected).hasSize(DemoScenario.PERSISTENT.size() + 1);
    assertRaisedExactly(run, injected);
  }

  /**
   * Asserts that every fault raised its main finding at its place after it began, and that nothing
   * was raised anywhere else or of another kind than the faults there explain.
   */
  private static void assertRaisedExactly(DetectorRun run, List<Fault> injected) {
    Map<String, List<Fault>> byPlace = new HashMap<>();
    for (Fault f : injected) {
      byPlace.computeIfAbsent(place(f), p -> new ArrayList<>()).add(f);
    }
    List<String> unexplained = new ArrayList<>();
    run.seen()
        .forEach(
            (seen, at) -> {
              List<Fault> there = byPlace.getOrDefault(seen.node() + "/" + seen.gpu(), List.of());
              boolean explained =
                  there.stream()
                      .anyMatch(
                          f -> f.kind().findings().contains(seen.kind()) && at >= f.startMillis());
              if (!explained) {
                unexplained.add(
                    seen
                        + " at +"
                        + (at - START) / 1000
                        + " s"
                        + (there.isEmpty() ? " on a healthy GPU" : " where " + there));
              }
            });
    assertThat(unexplained).as("conditions no injected fault explains").isEmpty();
    for (Fault f : injected) {
      String main = f.kind().findings().get(0);
      DetectorRun.Seen expected =
          new DetectorRun.Seen(main, f.node(), f.kind().nodeLevel() ? -1 : f.gpu());
      assertThat(run.seen()).as("%s raises %s", f.describe(), main).containsKey(expected);
      System.out.printf(
          "%-24s -> %-22s after %3d s%n",
          f.kind().word(), main, (run.seen().get(expected) - f.startMillis()) / 1000);
    }
  }

  private static String place(Fault f) {
    return f.node() + "/" + (f.kind().nodeLevel() ? -1 : f.gpu());
  }
}
