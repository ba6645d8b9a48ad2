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
      Map.of(
          FaultKind.XID, Set.of(DcgmField.XID_ERRORS),
          FaultKind.ECC_DBE, Set.of(DcgmField.ECC_DBE_VOL_TOTAL),
          FaultKind.ROW_REMAP_FAILURE, Set.of(DcgmField.ROW_REMAP_FAILURE),
          FaultKind.THERMAL_THROTTLE,
              Set.of(
                  DcgmField.SM_CLOCK,
                  DcgmField.GPU_TEMP,
                  DcgmField.MEMORY_TEMP,
                  DcgmField.POWER_USAGE,
                  DcgmField.CLOCKS_EVENT_REASONS),
          FaultKind.POWER_THROTTLE,
              Set.of(DcgmField.POWER_USAGE, DcgmField.SM_CLOCK, DcgmField.CLOCKS_EVENT_REASONS),
          FaultKind.STRAGGLER, Set.of(DcgmField.SM_CLOCK, DcgmField.SM_ACTIVE),
          FaultKind.GPU_MISSING, Set.of());

  @ParameterizedTest
  @EnumSource(FaultKind.class)
  void eachKindChangesExactlyItsFieldsOnExactlyItsGpu(FaultKind kind) {
    faults.add(NODE, GPU, kind, 48, START, Fault.UNTIL_DELETED);

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
      for (String other : List.of("gpu-node-004", "gpu-node-006", "gpu-node-064")) {
        assertThat(faulty.page(other, t)).isEqualTo(healthy.page(other, t));
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
    faults.add(NODE, 1, FaultKind.ECC_DBE, 0, START, Fault.UNTIL_DELETED);
    faults.add(NODE, 2, FaultKind.ROW_REMAP_FAILURE, 0, START, Fault.UNTIL_DELETED);
    PrometheusText.Page page = page(faulty, NODE, T);

    assertThat(page.value(DcgmField.ECC_DBE_VOL_TOTAL, 1)).isPositive();
    assertThat(page.value(DcgmField.ROW_REMAP_FAILURE, 2)).isEqualTo(1.0);
  }

  @Test
  void thermalThrottleIsHotSlowAndFlagged() {
    faults.add(NODE, GPU, FaultKind.THERMAL_THROTTLE, 0, START, Fault.UNTIL_DELETED);

    for (long t : INSTANTS) {
      PrometheusText.Page page = page(faulty, NODE, t);
      long reasons = page.value(DcgmField.CLOCKS_EVENT_REASONS, GPU).longValue();
      assertThat(ClockEventReason.HW_THERMAL_SLOWDOWN.isSet(reasons)).isTrue();
      assertThat(ClockEventReason.SW_THERMAL_SLOWDOWN.isSet(reasons)).isTrue();
      assertThat(page.value(DcgmField.GPU_TEMP, GPU)).isBetween(86.0, 94.0);
      assertThat(
              page.value(DcgmField.SM_CLOCK, GPU)
                  / page(healthy, NODE, t).value(DcgmField.SM_CLOCK, GPU))
          .isCloseTo(0.65, offset(0.02));
    }
  }

  @Test
  void powerThrottleSitsAtTheLimitWithThePowerCapBit() {
    faults.add(NODE, GPU, FaultKind.POWER_THROTTLE, 0, START, Fault.UNTIL_DELETED);

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
    faults.add(NODE, GPU, FaultKind.STRAGGLER, 0, START, Fault.UNTIL_DELETED);

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
      assertThat(page.value(DcgmField.SM_CLOCK, GPU) / peers).isBetween(0.65, 0.75);
      assertThat(page.value(DcgmField.SM_ACTIVE, GPU) / peerMedian(page, DcgmField.SM_ACTIVE))
          .isBetween(0.6, 0.8);
    }
  }

  @Test
  void olderExporterNodesFlagThrottlingUnderTheFormerName() {
    faults.add("gpu-node-008", 0, FaultKind.THERMAL_THROTTLE, 0, START, Fault.UNTIL_DELETED);
    PrometheusText.Page page = page(faulty, "gpu-node-008", T);

    assertThat(
            page.value(DcgmField.CLOCK_THROTTLE_REASONS, 0).longValue()
                & ClockEventReason.HW_THERMAL_SLOWDOWN.mask())
        .isNotZero();
    assertThat(page.named(DcgmField.CLOCKS_EVENT_REASONS)).isEmpty();
  }

  @Test
  void aFaultWithADurationClearsAndTheGpuReadsNormalAgain() {
    for (FaultKind kind : FaultKind.values()) {
      faults.add(NODE, GPU, kind, 79, T, 60_000);
    }

    assertThat(faulty.page(NODE, T - 1_000))
        .as("before the start")
        .isEqualTo(healthy.page(NODE, T - 1_000));
    assertThat(faulty.page(NODE, T + 30_000)).isNotEqualTo(healthy.page(NODE, T + 30_000));
    assertThat(faulty.page(NODE, T + 60_000))
        .as("at the end")
        .isEqualTo(healthy.page(NODE, T + 60_000));
    assertThat(faulty.page(NODE, T + 90_000)).isEqualTo(healthy.page(NODE, T + 90_000));
    assertThat(faults.current(T + 60_000)).isEmpty();
  }

  @Test
  void deletingAFaultRestoresTheGpu() {
    Fault xid = faults.add(NODE, GPU, FaultKind.XID, 79, START, Fault.UNTIL_DELETED);
    Fault dbe = faults.add(NODE, GPU, FaultKind.ECC_DBE, 79, START, Fault.UNTIL_DELETED);
    Fault missing = faults.add(NODE, 5, FaultKind.GPU_MISSING, 79, START, Fault.UNTIL_DELETED);
    assertThat(page(faulty, NODE, T).value(DcgmField.XID_ERRORS, GPU)).isEqualTo(79.0);

    assertThat(faults.remove(xid.id())).contains(xid);
    assertThat(faults.remove(dbe.id())).contains(dbe);
    assertThat(faults.remove(missing.id())).contains(missing);
    assertThat(faults.remove(missing.id())).isEmpty();

    PrometheusText.Page page = page(faulty, NODE, T);
    assertThat(page.value(DcgmField.XID_ERRORS, GPU)).isZero();
    assertThat(page.value(DcgmField.ECC_DBE_VOL_TOTAL, GPU)).isZero();
    assertThat(page.value(DcgmField.GPU_TEMP, 5)).isNotNull();
    assertThat(faulty.page(NODE, T)).isEqualTo(healthy.page(NODE, T));
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
