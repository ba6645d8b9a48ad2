package io.bulwark.sim.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;

import io.bulwark.api.telemetry.ClockEventReason;
import io.bulwark.api.telemetry.DcgmField;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class FaultEffectsTest {
  static final long START = SimulatedFleetTest.START;
  static final long T = SimulatedFleetTest.NOW;
  static final List<Long> INSTANTS = List.of(T, T + 1_000, T + 17_000, T + 60_000, T + 301_000);
  static final String NODE = "gpu-node-005";
  static final int GPU = 3;

  private final SimulatedFleet healthy =
      new SimulatedFleet(64, 8, "gpu-node-", 42, START, new FaultBook());
  private final FaultBook faults = new FaultBook();
  private final SimulatedFleet faulty = new SimulatedFleet(64, 8, "gpu-node-", 42, START, faults);

  static final Map<FaultKind, Set<String>> EXPECTED =
      Map.ofEntries(
          Map.entry(FaultKind.XID, Set.of(DcgmField.XID_ERRORS)),
          Map.entry(
              FaultKind.ECC_DBE, Set.of(DcgmField.ECC_DBE_VOL_TOTAL, DcgmField.ECC_DBE_AGG_TOTAL)),
          Map.entry(
              FaultKind.SBE_STORM,
              Set.of(DcgmField.ECC_SBE_VOL_TOTAL, DcgmField.ECC_SBE_AGG_TOTAL)),
          Map.entry(
              FaultKind.RETIRED_PAGES_PENDING,
              Set.of(DcgmField.RETIRED_SBE, DcgmField.RETIRED_PENDING)),
          Map.entry(
              FaultKind.ROW_REMAP_PENDING,
              Set.of(
                  DcgmField.ROW_REMAP_PENDING,
                  DcgmField.CORRECTABLE_REMAPPED_ROWS,
                  DcgmField.BANKS_REMAP_ROWS_AVAIL_MAX,
                  DcgmField.BANKS_REMAP_ROWS_AVAIL_HIGH)),
          Map.entry(
              FaultKind.ROW_REMAP_FAILURE,
              Set.of(
                  DcgmField.ROW_REMAP_FAILURE,
                  DcgmField.BANKS_REMAP_ROWS_AVAIL_MAX,
                  DcgmField.BANKS_REMAP_ROWS_AVAIL_NONE)),
          Map.entry(
              FaultKind.SPARE_ROWS_LOW,
              Set.of(DcgmField.BANKS_REMAP_ROWS_AVAIL_MAX, DcgmField.BANKS_REMAP_ROWS_AVAIL_LOW)),
          Map.entry(
              FaultKind.NVLINK_ERRORS,
              Set.of(
                  DcgmField.NVLINK_CRC_FLIT_ERRORS,
                  DcgmField.NVLINK_CRC_DATA_ERRORS,
                  DcgmField.NVLINK_REPLAY_ERRORS,
                  DcgmField.NVLINK_RECOVERY_ERRORS)),
          Map.entry(FaultKind.PCIE_REPLAY, Set.of(DcgmField.PCIE_REPLAY_COUNTER)),
          Map.entry(FaultKind.PCIE_DOWNTRAINED, Set.of(DcgmField.PCIE_LINK_WIDTH)),
          Map.entry(
              FaultKind.THERMAL_THROTTLE,
              Set.of(
                  DcgmField.SM_CLOCK,
                  DcgmField.GPU_TEMP,
                  DcgmField.MEMORY_TEMP,
                  DcgmField.POWER_USAGE,
                  DcgmField.CLOCKS_EVENT_REASONS,
                  DcgmField.THERMAL_VIOLATION)),
          Map.entry(
              FaultKind.POWER_THROTTLE,
              Set.of(
                  DcgmField.POWER_USAGE,
                  DcgmField.SM_CLOCK,
                  DcgmField.CLOCKS_EVENT_REASONS,
                  DcgmField.POWER_VIOLATION)),
          Map.entry(FaultKind.THERMAL_MARGIN, Set.of(DcgmField.GPU_TEMP, DcgmField.MEMORY_TEMP)),
          Map.entry(FaultKind.STRAGGLER, Set.of(DcgmField.SM_CLOCK, DcgmField.SM_ACTIVE)),
          Map.entry(FaultKind.GPU_MISSING, Set.of()),
          Map.entry(FaultKind.TELEMETRY_STALE, Set.of()));

  @ParameterizedTest
  @EnumSource(FaultKind.class)
  void eachKindChangesExactlyItsFieldsOnExactlyItsGpu(FaultKind kind) {
    faults.add(NODE, GPU, kind, START, Fault.UNTIL_DELETED);

    for (long t : INSTANTS) {
      PrometheusText.Page before = page(healthy, NODE, t);
      PrometheusText.Page after = page(faulty, NODE, t);

      Set<String> expected =
          EXPECTED.get(kind).stream()
              .map(f -> f + "@" + GPU)
              .collect(Collectors.toCollection(TreeSet::new));
      assertThat(changed(before, after)).as("%s at %d", kind, t).isEqualTo(expected);
      if (kind == FaultKind.GPU_MISSING) {
        assertThat(after.samples())
            .hasSize(7 * Metric.COUNT)
            .noneMatch(s -> s.label("gpu").equals("3"));
      } else {
        assertThat(after.samples()).hasSize(8 * Metric.COUNT);
      }
      assertThat(faulty.silence(NODE, t).isPresent()).isEqualTo(kind == FaultKind.TELEMETRY_STALE);
      for (String other : List.of("gpu-node-004", "gpu-node-006", "gpu-node-064")) {
        assertThat(faulty.page(other, t)).isEqualTo(healthy.page(other, t));
        assertThat(faulty.silence(other, t)).isEmpty();
      }
    }
  }

  @Test
  void xidShowsTheFaultsCode() {
    faults.add(NODE, GPU, FaultKind.XID, 48, START, Fault.UNTIL_DELETED);

    assertThat(page(faulty, NODE, T).value(DcgmField.XID_ERRORS, GPU)).isEqualTo(48.0);
  }

  @Test
  void eccAndRowRemapFaultsRaiseTheirCounters() {
    faults.add(NODE, 1, FaultKind.ECC_DBE, START, Fault.UNTIL_DELETED);
    faults.add(NODE, 2, FaultKind.ROW_REMAP_FAILURE, START, Fault.UNTIL_DELETED);
    PrometheusText.Page page = page(faulty, NODE, T);

    assertThat(page.value(DcgmField.ECC_DBE_VOL_TOTAL, 1)).isPositive();
    assertThat(page.value(DcgmField.ROW_REMAP_FAILURE, 2)).isEqualTo(1.0);
  }

  @Test
  void thermalThrottleIsHotSlowAndFlagged() {
    faults.add(NODE, GPU, FaultKind.THERMAL_THROTTLE, START, Fault.UNTIL_DELETED);

    for (long t : INSTANTS) {
      PrometheusText.Page page = page(faulty, NODE, t);
      long reasons = page.value(DcgmField.CLOCKS_EVENT_REASONS, GPU).longValue();
      assertThat(ClockEventReason.HW_THERMAL_SLOWDOWN.isSet(reasons)).isTrue();
      assertThat(ClockEventReason.SW_THERMAL_SLOWDOWN.isSet(reasons)).isTrue();
      assertThat(page.value(DcgmField.GPU_TEMP, GPU))
          .isBetween(88.0, (double) GpuModel.SHUTDOWN_TEMP_C - 1);
      assertThat(
              page.value(DcgmField.SM_CLOCK, GPU)
                  / page(healthy, NODE, t).value(DcgmField.SM_CLOCK, GPU))
          .isCloseTo(0.65, offset(0.02));
    }
  }

  @Test
  void powerThrottleSitsAtTheLimitWithThePowerCapBit() {
    faults.add(NODE, GPU, FaultKind.POWER_THROTTLE, START, Fault.UNTIL_DELETED);

    for (long t : INSTANTS) {
      PrometheusText.Page page = page(faulty, NODE, t);
      assertThat(
              ClockEventReason.SW_POWER_CAP.isSet(
                  page.value(DcgmField.CLOCKS_EVENT_REASONS, GPU).longValue()))
          .isTrue();
      assertThat(page.value(DcgmField.POWER_USAGE, GPU)).isBetween(694.0, 700.0);
      assertThat(
              page.value(DcgmField.SM_CLOCK, GPU)
                  / page(healthy, NODE, t).value(DcgmField.SM_CLOCK, GPU))
          .isCloseTo(0.75, offset(0.02));
    }
  }

  @Test
  void stragglerIsSlowerThanItsPeersWithNoReasonBitsAndNormalTemperatures() {
    faults.add(NODE, GPU, FaultKind.STRAGGLER, START, Fault.UNTIL_DELETED);

    for (long t : INSTANTS) {
      PrometheusText.Page page = page(faulty, NODE, t);
      PrometheusText.Page normal = page(healthy, NODE, t);
      assertThat(page.value(DcgmField.CLOCKS_EVENT_REASONS, GPU)).isZero();
      assertThat(page.value(DcgmField.GPU_TEMP, GPU))
          .isEqualTo(normal.value(DcgmField.GPU_TEMP, GPU))
          .isBetween(55.0, 75.0);
      assertThat(page.value(DcgmField.MEMORY_TEMP, GPU))
          .isEqualTo(normal.value(DcgmField.MEMORY_TEMP, GPU));
      double peers = peerMedian(page, DcgmField.SM_CLOCK);
      assertThat(page.value(DcgmField.SM_CLOCK, GPU) / peers).isBetween(0.86, 0.94);
      assertThat(page.value(DcgmField.SM_ACTIVE, GPU) / peerMedian(page, DcgmField.SM_ACTIVE))
          .isBetween(0.82, 0.98);
    }
  }

  @Test
  void olderExporterNodesFlagThrottlingUnderTheFormerName() {
    faults.add("gpu-node-008", 0, FaultKind.THERMAL_THROTTLE, START, Fault.UNTIL_DELETED);
    PrometheusText.Page page = page(faulty, "gpu-node-008", T);

    assertThat(
            page.value(DcgmField.CLOCK_THROTTLE_REASONS, 0).longValue()
                & ClockEventReason.HW_THERMAL_SLOWDOWN.mask())
        .isNotZero();
    assertThat(page.named(DcgmField.CLOCKS_EVENT_REASONS)).isEmpty();
  }

  @Test
  void aFaultWithADurationClearsTheGpuReadsNormalAgainAndItsCountersStay() {
    for (FaultKind kind : FaultKind.values()) {
      faults.add(NODE, GPU, kind, T, 60_000);
    }

    assertThat(faulty.page(NODE, T - 1_000))
        .as("before the start")
        .isEqualTo(healthy.page(NODE, T - 1_000));
    assertThat(faulty.page(NODE, T + 30_000)).isNotEqualTo(healthy.page(NODE, T + 30_000));
    assertThat(faulty.silence(NODE, T + 30_000)).isPresent();
    faults.prune(T + 60_000);
    assertThat(faults.current(T + 60_000)).isEmpty();
    for (long t : List.of(T + 60_000, T + 90_000)) {
      assertThat(Gauges.of(faulty, NODE, t)).as("at %d", t).isEqualTo(Gauges.of(healthy, NODE, t));
      assertThat(faulty.silence(NODE, t)).isEmpty();
    }
    Map<String, Double> left = added(T + 60_000);
    assertThat(left).isEqualTo(added(T + 90_000)).isEqualTo(added(T + 3_600_000));
    for (String field :
        List.of(
            DcgmField.ECC_SBE_VOL_TOTAL,
            DcgmField.ECC_DBE_AGG_TOTAL,
            DcgmField.RETIRED_SBE,
            DcgmField.CORRECTABLE_REMAPPED_ROWS,
            DcgmField.NVLINK_REPLAY_ERRORS,
            DcgmField.PCIE_REPLAY_COUNTER,
            DcgmField.THERMAL_VIOLATION,
            DcgmField.POWER_VIOLATION)) {
      assertThat(left.get(field + "@" + GPU)).as(field).isPositive();
    }
    assertThat(left.get(DcgmField.THERMAL_VIOLATION + "@" + GPU)).isEqualTo(60e9);
    assertThat(left.get(DcgmField.PCIE_REPLAY_COUNTER + "@" + GPU)).isEqualTo(60.0);
  }

  @Test
  void countersNeverFallWhileFaultsComeAndGo() {
    Fault nvlink = faults.add(NODE, GPU, FaultKind.NVLINK_ERRORS, T + 10_000, Fault.UNTIL_DELETED);
    faults.add(NODE, GPU, FaultKind.SBE_STORM, T + 20_000, 30_000);
    faults.add(NODE, GPU, FaultKind.POWER_THROTTLE, T + 5_000, 40_000);
    Map<String, Double> last = Gauges.lasting(faulty, NODE, T);
    for (long t = T; t < T + 120_000; t += 1_000) {
      if (t == T + 70_000) {
        assertThat(faults.remove(nvlink.id(), t)).contains(nvlink);
      }
      faults.prune(t);
      Map<String, Double> now = Gauges.lasting(faulty, NODE, t);
      for (Map.Entry<String, Double> e : now.entrySet()) {
        if (!e.getKey().startsWith(DcgmField.BANKS_REMAP_ROWS_AVAIL_MAX)) {
          assertThat(e.getValue())
              .as("%s at +%d s", e.getKey(), (t - T) / 1000)
              .isGreaterThanOrEqualTo(last.get(e.getKey()));
        }
      }
      last = now;
    }
    assertThat(last.get(DcgmField.NVLINK_REPLAY_ERRORS + "@" + GPU))
        .isEqualTo(page(healthy, NODE, T).value(DcgmField.NVLINK_REPLAY_ERRORS, GPU) + 7);
  }

  @Test
  void thermalMarginCreepsToItsMarginBelowSlowdownWithoutThrottling() {
    faults.add(NODE, GPU, FaultKind.THERMAL_MARGIN, T, Fault.UNTIL_DELETED);

    double previous = page(healthy, NODE, T).value(DcgmField.GPU_TEMP, GPU);
    for (long t = T; t < T + 180_000; t += 5_000) {
      PrometheusText.Page page = page(faulty, NODE, t);
      double temp = page.value(DcgmField.GPU_TEMP, GPU);
      assertThat(temp).isLessThan(GpuModel.SLOWDOWN_TEMP_C);
      assertThat(page.value(DcgmField.CLOCKS_EVENT_REASONS, GPU)).isZero();
      if (t >= T + FaultEffects.THERMAL_MARGIN_RAMP_MILLIS) {
        assertThat(temp).isBetween(86.0, 88.0);
      } else {
        assertThat(temp).isGreaterThanOrEqualTo(previous - 2);
      }
      previous = temp;
    }
  }

  @Test
  void aDowntrainedLinkRunsAtTheGivenWidthAndIdleLinksDropToGenOne() {
    faults.add(NODE, GPU, FaultKind.PCIE_DOWNTRAINED, 4, START, Fault.UNTIL_DELETED);
    PrometheusText.Page page = page(faulty, NODE, T);
    PrometheusText.Page idle = page(healthy, "gpu-node-010", T);

    for (int gpu = 0; gpu < 8; gpu++) {
      assertThat(page.value(DcgmField.PCIE_LINK_WIDTH, gpu)).isEqualTo(gpu == GPU ? 4.0 : 16.0);
      assertThat(page.value(DcgmField.PCIE_LINK_GEN, gpu)).isEqualTo(5.0);
      assertThat(page.value(DcgmField.PCIE_MAX_LINK_WIDTH, gpu)).isEqualTo(16.0);
      assertThat(idle.value(DcgmField.PCIE_LINK_GEN, gpu)).isEqualTo(1.0);
      assertThat(idle.value(DcgmField.PCIE_MAX_LINK_GEN, gpu)).isEqualTo(5.0);
    }
  }

  @Test
  void deletingAFaultRestoresTheGpu() {
    Fault xid = faults.add(NODE, GPU, FaultKind.XID, 79, START, Fault.UNTIL_DELETED);
    Fault dbe = faults.add(NODE, GPU, FaultKind.ECC_DBE, START, Fault.UNTIL_DELETED);
    Fault missing = faults.add(NODE, 5, FaultKind.GPU_MISSING, START, Fault.UNTIL_DELETED);
    assertThat(page(faulty, NODE, T).value(DcgmField.XID_ERRORS, GPU)).isEqualTo(79.0);

    assertThat(faults.remove(xid.id(), T)).contains(xid);
    assertThat(faults.remove(dbe.id(), T)).contains(dbe);
    assertThat(faults.remove(missing.id(), T)).contains(missing);
    assertThat(faults.remove(missing.id(), T)).isEmpty();

    PrometheusText.Page page = page(faulty, NODE, T);
    assertThat(page.value(DcgmField.XID_ERRORS, GPU)).isZero();
    assertThat(page.value(DcgmField.ECC_DBE_VOL_TOTAL, GPU)).isZero();
    assertThat(page.value(DcgmField.ECC_DBE_AGG_TOTAL, GPU)).isEqualTo(2.0);
    assertThat(page.value(DcgmField.GPU_TEMP, 5)).isNotNull();
    assertThat(Gauges.of(faulty, NODE, T)).isEqualTo(Gauges.of(healthy, NODE, T));
  }

  /** Returns what the faults left on the lasting fields at t, against the healthy fleet. */
  private Map<String, Double> added(long t) {
    Map<String, Double> faultyNow = Gauges.lasting(faulty, NODE, t);
    Map<String, Double> healthyNow = Gauges.lasting(healthy, NODE, t);
    Map<String, Double> difference = new java.util.TreeMap<>();
    faultyNow.forEach((k, v) -> difference.put(k, v - healthyNow.get(k)));
    return difference;
  }

  private static PrometheusText.Page page(SimulatedFleet fleet, String node, long t) {
    return PrometheusText.parse(fleet.page(node, t).orElseThrow());
  }

  /** Returns "metric@gpu" for every line whose value differs or that vanished. */
  private static Set<String> changed(PrometheusText.Page before, PrometheusText.Page after) {
    Map<String, Double> next =
        after.samples().stream()
            .collect(
                Collectors.toMap(
                    s -> s.name() + "@" + s.label("gpu"), PrometheusText.Sample::value));
    Set<String> changed = new TreeSet<>();
    for (PrometheusText.Sample s : before.samples()) {
      String key = s.name() + "@" + s.label("gpu");
      Double value = next.get(key);
      if (value == null) {
        continue;
      }
      if (!value.equals(s.value())) {
        changed.add(key);
      }
    }
    assertThat(next.keySet())
        .isSubsetOf(
            before.samples().stream()
                .map(s -> s.name() + "@" + s.label("gpu"))
                .collect(Collectors.toSet()));
    return changed;
  }

  private static double peerMedian(PrometheusText.Page page, String metric) {
    List<Double> peers =
        page.named(metric).stream()
            .filter(s -> !s.label("gpu").equals(String.valueOf(GPU)))
            .map(PrometheusText.Sample::value)
            .sorted()
            .toList();
    return peers.get(peers.size() / 2);
  }
}
