package io.bulwark.sim.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.bulwark.api.fleet.NodeId;
import io.bulwark.api.telemetry.ClockEventReason;
import io.bulwark.api.telemetry.DcgmField;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class SimulatedFleetTest {
  static final long START = 1_767_225_600_000L;
  static final long NOW = START + 3_600_000L;

  private final FaultBook faults = new FaultBook();
  private final SimulatedFleet fleet = new SimulatedFleet(64, 8, "gpu-node-", 42, START, faults);

  @Test
  void namesNodesWithThePrefixAndAZeroPaddedNumber() {
    assertThat(fleet.nodes())
        .hasSize(64)
        .startsWith("gpu-node-001", "gpu-node-002")
        .endsWith("gpu-node-064");
    assertThat(fleet.nodes()).allMatch(NodeId::isValid);
    assertThat(new SimulatedFleet(1200, 1, "n", 1, START, faults).nodes())
        .startsWith("n0001")
        .endsWith("n1200");
  }

  @Test
  void everyPageParsesAsPrometheusTextWithEveryFieldForEveryGpu() {
    for (String node : fleet.nodes()) {
      PrometheusText.Page page = PrometheusText.parse(fleet.page(node, NOW).orElseThrow());

      assertThat(page.types()).hasSize(Metric.COUNT);
      assertThat(page.samples()).hasSize(Metric.COUNT * 8);
      for (Metric metric : Metric.values()) {
        String name = metric.field(SimulatedFleet.runsOlderExporter(fleet.nodes().indexOf(node)));
        assertThat(page.types()).containsEntry(name, metric.type());
        assertThat(page.helps().get(name)).isNotBlank();
        assertThat(page.named(name))
            .extracting(s -> s.label("gpu"))
            .containsExactly("0", "1", "2", "3", "4", "5", "6", "7");
      }
    }
  }

  @Test
  void declaresTypesAsDcgmExporterDoes() {
    PrometheusText.Page page = PrometheusText.parse(fleet.page("gpu-node-001", NOW).orElseThrow());

    assertThat(page.types())
        .containsEntry(DcgmField.TOTAL_ENERGY, "counter")
        .containsEntry(DcgmField.ECC_DBE_VOL_TOTAL, "counter")
        .containsEntry(DcgmField.PCIE_REPLAY_COUNTER, "counter")
        .containsEntry(DcgmField.NVLINK_BANDWIDTH_TOTAL, "counter")
        .containsEntry(DcgmField.XID_ERRORS, "gauge")
        .containsEntry(DcgmField.SM_CLOCK, "gauge")
        .containsEntry(DcgmField.ROW_REMAP_FAILURE, "gauge");
    assertThat(page.helps()).containsEntry(DcgmField.SM_CLOCK, "SM clock frequency (in MHz).");
    assertThat(page.named(DcgmField.POWER_USAGE))
        .allMatch(s -> s.rawValue().matches("\\d+\\.\\d{6}"));
    assertThat(page.named(DcgmField.SM_ACTIVE)).allMatch(s -> s.rawValue().matches("0\\.\\d{6}"));
    assertThat(page.named(DcgmField.SM_CLOCK)).allMatch(s -> s.rawValue().matches("\\d+"));
  }

  @Test
  void labelsEachGpuAsDcgmExporterDoes() {
    PrometheusText.Page page = PrometheusText.parse(fleet.page("gpu-node-007", NOW).orElseThrow());
    Set<String> uuids = new HashSet<>();
    Set<String> buses = new HashSet<>();

    for (PrometheusText.Sample s : page.named(DcgmField.GPU_TEMP)) {
      assertThat(s.labels().keySet())
          .containsExactly(
              "gpu",
              "UUID",
              "pci_bus_id",
              "device",
              "modelName",
              "Hostname",
              "DCGM_FI_DRIVER_VERSION");
      assertThat(s.label("UUID"))
          .matches("GPU-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");
      assertThat(s.label("pci_bus_id")).matches("00000000:[0-9A-F]{2}:00\\.0");
      assertThat(s.label("device")).isEqualTo("nvidia" + s.label("gpu"));
      assertThat(s.label("modelName")).isEqualTo("NVIDIA H100 80GB HBM3");
      assertThat(s.label("Hostname")).isEqualTo("gpu-node-007");
      assertThat(s.label("DCGM_FI_DRIVER_VERSION")).isEqualTo(SimulatedFleet.DRIVER_VERSION);
      uuids.add(s.label("UUID"));
      buses.add(s.label("pci_bus_id"));
    }
    assertThat(uuids).hasSize(8);
    assertThat(buses).hasSize(8);
  }

  @Test
  void everyEighthNodeServesTheOlderClockThrottleName() {
    for (int n = 0; n < 64; n++) {
      PrometheusText.Page page =
          PrometheusText.parse(fleet.page(fleet.nodes().get(n), NOW).orElseThrow());
      boolean older = (n + 1) % 8 == 0;

      assertThat(page.types().containsKey(DcgmField.CLOCK_THROTTLE_REASONS))
          .as(fleet.nodes().get(n))
          .isEqualTo(older);
      assertThat(page.types().containsKey(DcgmField.CLOCKS_EVENT_REASONS)).isEqualTo(!older);
    }
    assertThat(
            PrometheusText.parse(fleet.page("gpu-node-008", NOW).orElseThrow())
                .named(DcgmField.GPU_TEMP)
                .get(0)
                .label("DCGM_FI_DRIVER_VERSION"))
        .isEqualTo(SimulatedFleet.OLDER_DRIVER_VERSION);
  }

  @Test
  void busyGpusLookLikeATrainingJob() {
    List<Double> clocks = new ArrayList<>();
    for (long t = NOW; t < NOW + 120_000; t += 1000) {
      PrometheusText.Page page = PrometheusText.parse(fleet.page("gpu-node-001", t).orElseThrow());
      for (int gpu = 0; gpu < 8; gpu++) {
        clocks.add(page.value(DcgmField.SM_CLOCK, gpu));
        assertThat(page.value(DcgmField.GPU_TEMP, gpu)).isBetween(55.0, 75.0);
        assertThat(page.value(DcgmField.POWER_LIMIT, gpu)).isEqualTo(700.0);
        assertThat(page.value(DcgmField.CLOCKS_EVENT_REASONS, gpu)).isZero();
        assertThat(page.value(DcgmField.XID_ERRORS, gpu)).isZero();
        assertThat(page.value(DcgmField.ECC_DBE_VOL_TOTAL, gpu)).isZero();
        assertThat(page.value(DcgmField.FB_USED, gpu) + page.value(DcgmField.FB_FREE, gpu))
            .isEqualTo(81559.0);
        if (page.value(DcgmField.GPU_UTIL, gpu) >= 90) {
          assertThat(page.value(DcgmField.POWER_USAGE, gpu)).isBetween(550.0, 690.0);
          assertThat(page.value(DcgmField.SM_ACTIVE, gpu)).isBetween(0.8, 1.0);
        }
      }
    }
    assertThat(median(clocks)).isEqualTo(1980.0);
    assertThat(clocks).allMatch(c -> c % 15 == 0);
    assertThat(clocks.stream().filter(c -> c >= 1935).count())
        .isGreaterThan(clocks.size() * 95 / 100);
  }

  @Test
  void idleNodesReportGpuIdleLowClocksAndLowPower() {
    List<String> idle =
        fleet.nodes().stream()
            .filter(n -> SimulatedFleet.isIdle(fleet.nodes().indexOf(n)))
            .toList();
    assertThat(idle)
        .containsExactly("gpu-node-010", "gpu-node-026", "gpu-node-042", "gpu-node-058");

    PrometheusText.Page page = PrometheusText.parse(fleet.page("gpu-node-010", NOW).orElseThrow());
    for (int gpu = 0; gpu < 8; gpu++) {
      assertThat(page.value(DcgmField.GPU_UTIL, gpu)).isZero();
      assertThat(
              ClockEventReason.GPU_IDLE.isSet(
                  page.value(DcgmField.CLOCKS_EVENT_REASONS, gpu).longValue()))
          .isTrue();
      assertThat(page.value(DcgmField.SM_CLOCK, gpu)).isLessThan(500.0);
      assertThat(page.value(DcgmField.POWER_USAGE, gpu)).isBetween(55.0, 90.0);
      assertThat(page.value(DcgmField.SM_ACTIVE, gpu)).isZero();
    }
  }

  @Test
  void theSameSeedRendersTheSamePageAndAnotherSeedAnotherOne() {
    SimulatedFleet twin = new SimulatedFleet(64, 8, "gpu-node-", 42, START, new FaultBook());
    SimulatedFleet other = new SimulatedFleet(64, 8, "gpu-node-", 43, START, new FaultBook());

    for (String node : List.of("gpu-node-001", "gpu-node-033", "gpu-node-064")) {
      assertThat(twin.page(node, NOW)).isEqualTo(fleet.page(node, NOW));
      assertThat(other.page(node, NOW)).isNotEqualTo(fleet.page(node, NOW));
    }
  }

  @Test
  void valuesEvolveWithTimeAndCountersOnlyGrow() {
    PrometheusText.Page before =
        PrometheusText.parse(fleet.page("gpu-node-002", NOW).orElseThrow());
    PrometheusText.Page after =
        PrometheusText.parse(fleet.page("gpu-node-002", NOW + 15_000).orElseThrow());

    assertThat(after.named(DcgmField.POWER_USAGE))
        .extracting(PrometheusText.Sample::value)
        .isNotEqualTo(
            before.named(DcgmField.POWER_USAGE).stream()
                .map(PrometheusText.Sample::value)
                .toList());
    for (int gpu = 0; gpu < 8; gpu++) {
      assertThat(after.value(DcgmField.TOTAL_ENERGY, gpu))
          .isGreaterThan(before.value(DcgmField.TOTAL_ENERGY, gpu));
      assertThat(after.value(DcgmField.NVLINK_BANDWIDTH_TOTAL, gpu))
          .isGreaterThan(before.value(DcgmField.NVLINK_BANDWIDTH_TOTAL, gpu));
      assertThat(after.value(DcgmField.ECC_SBE_VOL_TOTAL, gpu))
          .isEqualTo(before.value(DcgmField.ECC_SBE_VOL_TOTAL, gpu));
    }
  }

  @Test
  void dipsAreRareAndLastASingleSample() {
    GpuModel model = new GpuModel(new Noise(42), START);
    double[] values = new double[Metric.COUNT];
    int seconds = 6 * 3600;
    int dips = 0;
    int longestRun = 0;
    for (int gpu = 0; gpu < 8; gpu++) {
      GpuProfile profile = model.profile(2, gpu, false);
      int run = 0;
      for (int s = 0; s < seconds; s++) {
        model.healthy(profile, NOW + s * 1000L, values);
        boolean dip = values[Metric.GPU_UTIL.ordinal()] < 90;
        if (dip) {
          assertThat(values[Metric.SM_ACTIVE.ordinal()]).isLessThan(0.7);
          assertThat(values[Metric.SM_CLOCK.ordinal()]).isLessThan(1980.0);
        }
        dips += dip ? 1 : 0;
        run = dip ? run + 1 : 0;
        longestRun = Math.max(longestRun, run);
      }
    }
    assertThat(dips)
        .as("dip samples among %d", 8 * seconds)
        .isBetween(8 * seconds / 1000, 8 * seconds / 100);
    assertThat(longestRun).isEqualTo(1);
  }

  @Test
  void unknownNodesHaveNoPage() {
    assertThat(fleet.page("gpu-node-065", NOW)).isEmpty();
    assertThat(fleet.page("", NOW)).isEmpty();
  }

  @Test
  void rendersTheWholeFleetCheaply() {
    for (int warm = 0; warm < 5; warm++) {
      fleet.nodes().forEach(n -> fleet.page(n, NOW));
    }
    int rounds = 20;
    long bytes = 0;
    long began = System.nanoTime();
    for (int r = 0; r < rounds; r++) {
      for (String node : fleet.nodes()) {
        bytes += fleet.page(node, NOW + r * 1000L).orElseThrow().length();
      }
    }
    double millisPerFleet = (System.nanoTime() - began) / 1e6 / rounds;
    System.out.printf(
        "rendering 64 nodes x 8 GPUs: %.2f ms per fleet, %d KiB per fleet%n",
        millisPerFleet, bytes / rounds / 1024);
    assertThat(millisPerFleet).as("ms to render the fleet once").isLessThan(250);
  }

  private static double median(List<Double> values) {
    List<Double> sorted = values.stream().sorted().collect(Collectors.toList());
    return sorted.get(sorted.size() / 2);
  }
}
