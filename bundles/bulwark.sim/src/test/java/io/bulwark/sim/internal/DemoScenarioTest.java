package io.bulwark.sim.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class DemoScenarioTest {
  static final long T = SimulatedFleetTest.NOW;

  private final FaultBook faults = new FaultBook();
  private final SimulatedFleet fleet = new SimulatedFleet(64, 8, "gpu-node-", 42, T, faults);
  private final DemoScenario demo = new DemoScenario(fleet, faults, 42);
  private final SimulatedFleet healthy =
      new SimulatedFleet(64, 8, "gpu-node-", 42, T, new FaultBook());

  @Test
  void startsWithNinePersistentFaultsOfDistinctKindsOnDistinctBusyNodes() {
    List<Fault> injected = demo.start(T);

    assertThat(injected)
        .extracting(Fault::kind)
        .containsExactlyElementsOf(DemoScenario.PERSISTENT)
        .hasSize(9)
        .doesNotHaveDuplicates();
    assertThat(injected)
        .extracting(Fault::node)
        .doesNotHaveDuplicates()
        .noneMatch(n -> SimulatedFleet.isIdle(fleet.nodes().indexOf(n)));
    assertThat(injected)
        .allMatch(f -> f.endMillis() == Fault.UNTIL_DELETED && f.activeAt(T + 86_400_000L));
    assertThat(faults.current(T)).containsExactlyElementsOf(injected);
    assertThat(injected)
        .filteredOn(f -> f.kind() == FaultKind.XID)
        .extracting(Fault::xid)
        .containsExactly(79);
  }

  @Test
  void cycleXidsAreHardwareXids() {
    demo.start(T);
    List<Integer> xids = new java.util.ArrayList<>();
    for (int round = 0; round < DemoScenario.CYCLE.size() * 4; round++) {
      Fault f = demo.cycle(T + round * 1000L);
      if (f.kind() == FaultKind.XID) {
        xids.add(f.xid());
      }
    }
    assertThat(xids).containsExactly(95, 48, 119, 79);
  }

  @Test
  void placesFaultsAtFixedPlacesForAGivenFleet() {
    List<String> first =
        demo.start(T).stream().map(f -> f.kind().word() + "@" + f.node() + "/" + f.gpu()).toList();
    FaultBook otherBook = new FaultBook();
    List<String> second =
        new DemoScenario(new SimulatedFleet(64, 8, "gpu-node-", 42, T, otherBook), otherBook, 42)
            .start(T + 5_000).stream()
                .map(f -> f.kind().word() + "@" + f.node() + "/" + f.gpu())
                .toList();

    assertThat(second).isEqualTo(first).contains("xid@gpu-node-003/1");
  }

  @Test
  void cycleFaultsComeAndGo() {
    Set<String> persistent = new HashSet<>(demo.start(T).stream().map(Fault::node).toList());
    Set<FaultKind> kinds = new HashSet<>();
    long t = T + DemoScenario.FIRST_CYCLE_DELAY_MILLIS;
    int rounds = DemoScenario.CYCLE.size();
    for (int round = 0; round < rounds; round++, t += DemoScenario.CYCLE_PERIOD_MILLIS) {
      Fault cycled = demo.cycle(t);
      kinds.add(cycled.kind());

      long open = t + 30_000;
      long resolved = t + DemoScenario.CYCLE_FAULT_MILLIS;

      assertThat(cycled.endMillis() - cycled.startMillis())
          .isEqualTo(DemoScenario.CYCLE_FAULT_MILLIS);
      assertThat(persistent).doesNotContain(cycled.node());
      if (cycled.kind() == FaultKind.TELEMETRY_STALE) {
        assertThat(fleet.silence(cycled.node(), open)).contains(cycled);
        assertThat(fleet.silence(cycled.node(), resolved)).isEmpty();
      } else {
        assertThat(fleet.page(cycled.node(), open)).isNotEqualTo(healthy.page(cycled.node(), open));
      }
      assertThat(Gauges.of(fleet, cycled.node(), resolved))
          .isEqualTo(Gauges.of(healthy, cycled.node(), resolved));
      assertThat(faults.current(open)).hasSize(10).contains(cycled);
      assertThat(faults.current(resolved)).hasSize(9).doesNotContain(cycled);
    }
    kinds.addAll(DemoScenario.PERSISTENT);
    assertThat(kinds)
        .as("every kind shows in the demo")
        .containsExactlyInAnyOrder(FaultKind.values());
  }

  @Test
  void smallFleetsStillGetDistinctGpus() {
    FaultBook book = new FaultBook();
    List<Fault> injected =
        new DemoScenario(new SimulatedFleet(2, 2, "n", 1, T, book), book, 1).start(T);

    assertThat(injected).hasSize(4);
    assertThat(injected)
        .extracting(Fault::kind)
        .containsExactlyElementsOf(DemoScenario.PERSISTENT.subList(0, 4));
    assertThat(injected).extracting(f -> f.node() + "/" + f.gpu()).doesNotHaveDuplicates();
  }
}
