package io.bulwark.health.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.bulwark.api.fleet.NodeId;
import io.bulwark.api.health.CapacityReport;
import io.bulwark.api.health.Condition;
import io.bulwark.api.health.FindingKind;
import io.bulwark.api.health.GpuCapacity;
import io.bulwark.api.health.LossCause;
import io.bulwark.api.health.Severity;
import io.bulwark.testing.InMemoryFleet;
import io.bulwark.testing.InMemoryTelemetry;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CapacityAccountTest {
  private static final long START = 1_700_000_000_000L;

  private final ManualClock clock = new ManualClock(START);
  private final InMemoryTelemetry telemetry = new InMemoryTelemetry();
  private final InMemoryFleet fleet = new InMemoryFleet();
  private final ScriptedDetector detector = new ScriptedDetector("scripted");
  private final HealthEngine engine =
      new HealthEngine(
          telemetry,
          fleet,
          new InMemoryFindings(),
          new HealthEngineOptions(2000, 10_000, 0),
          clock);

  private void tenNodesOfTenGpusReporting() {
    for (int n = 0; n < 10; n++) {
      telemetry.report(node(n), 10, "H100", clock.millis());
    }
  }

  private static String node(int n) {
    return String.format("gpu-node-%03d", n);
  }

  private static Condition condition(
      String kind, int node, int gpu, Severity severity, double factor) {
    return new Condition(
        kind,
        NodeId.of(node(node)),
        gpu,
        severity,
        kind + " on GPU " + gpu,
        Map.of("metric", "test"),
        "",
        factor);
  }

  @Test
  void eighty_of_a_hundred_gpus_healthy_at_seventy_percent_is_fifty_six_percent_effective() {
    tenNodesOfTenGpusReporting();
    List<Condition> conditions = new ArrayList<>();
    for (int n = 0; n < 10; n++) {
      for (int g = 0; g < 10; g++) {
        conditions.add(
            n < 2
                ? condition(FindingKind.ECC_DBE, n, g, Severity.CRITICAL, 1.0)
                : condition(FindingKind.THERMAL_THROTTLE, n, g, Severity.WARNING, 0.7));
      }
    }
    detector.reports(conditions);
    engine.addDetector(detector);

    engine.evaluate();

    CapacityReport report = engine.capacity();
    assertThat(report.gpusInstalled()).isEqualTo(100);
    assertThat(report.gpusHealthy()).isEqualTo(80);
    assertThat(report.meanRelativePerformance()).isCloseTo(0.7, within(1e-9));
    assertThat(report.effectiveCapacity()).isCloseTo(0.56, within(1e-9));
    assertThat(report.summary()).isEqualTo("80 of 100 GPUs serving at 70% = 56% effective");
    // Healthy, degraded, failed and unknown do not overlap: they add up to the GPUs installed.
    assertThat(report.gpusFullyHealthy()).isZero();
    assertThat(report.gpusDegraded()).isEqualTo(80);
    assertThat(report.gpusFailed()).isEqualTo(20);
    assertThat(report.gpusUnknown()).isZero();
    assertThat(report.at().toEpochMilli()).isEqualTo(clock.millis());
  }

  @Test
  void a_gpu_runs_at_the_lowest_factor_of_its_open_non_critical_findings_and_info_costs_nothing() {
    telemetry.report("gpu-node-000", 2, "H100", clock.millis());
    detector.reports(
        List.of(
            condition(FindingKind.THERMAL_THROTTLE, 0, 0, Severity.WARNING, 0.8),
            condition(FindingKind.STRAGGLER, 0, 0, Severity.WARNING, 0.5),
            condition(FindingKind.XID, 0, 1, Severity.INFO, 1.0)));
    engine.addDetector(detector);

    engine.evaluate();

    assertThat(engine.capacity().gpus())
        .containsExactly(
            new GpuCapacity(NodeId.of("gpu-node-000"), 0, true, 0.5, FindingKind.STRAGGLER),
            new GpuCapacity(NodeId.of("gpu-node-000"), 1, true, 1.0));
  }

  @Test
  void gpus_of_a_node_that_stopped_reporting_telemetry_count_as_lost_and_unknown() {
    tenNodesOfTenGpusReporting();
    engine.evaluate();
    assertThat(engine.capacity().gpusHealthy()).isEqualTo(100);

    clock.advance(9_000);
    for (int n = 1; n < 10; n++) {
      telemetry.scrapedAt(node(n), clock.millis());
    }
    engine.evaluate();
    assertThat(engine.capacity().gpusHealthy()).isEqualTo(100);

    clock.advance(2_000);
    engine.evaluate();
    assertThat(engine.capacity().gpusHealthy()).isEqualTo(90);
    assertThat(engine.capacity().gpus())
        .filteredOn(g -> !g.healthy())
        .allSatisfy(g -> assertThat(g.node().value()).isEqualTo("gpu-node-000"))
        .allSatisfy(g -> assertThat(g.relativePerformance()).isZero())
        .allSatisfy(g -> assertThat(g.unknown()).isTrue())
        .allSatisfy(g -> assertThat(g.lossCause()).isEqualTo(LossCause.UNKNOWN));
    CapacityReport report = engine.capacity();
    assertThat(report.gpusUnknown()).as("never healthy what it cannot see").isEqualTo(10);
    assertThat(report.gpusFailed()).as("nor failed").isZero();
    assertThat(report.gpusFullyHealthy()).isEqualTo(90);
    assertThat(report.summary())
        .isEqualTo("90 of 100 GPUs serving at 100% = 90% effective; 10 GPUs unknown");
  }

  @Test
  void a_critical_finding_on_the_whole_node_marks_all_its_gpus_unhealthy() {
    tenNodesOfTenGpusReporting();
    detector.reports(List.of(condition("node-unreachable", 3, -1, Severity.CRITICAL, 1.0)));
    engine.addDetector(detector);

    engine.evaluate();

    assertThat(engine.capacity().summary())
        .isEqualTo("90 of 100 GPUs serving at 100% = 90% effective");
    assertThat(engine.capacity().gpusFailed()).isEqualTo(10);
    assertThat(engine.capacity().gpusUnknown()).isZero();
  }

  @Test
  void before_the_first_evaluation_the_account_is_empty() {
    assertThat(engine.capacity().gpusInstalled()).isZero();
    assertThat(engine.capacity().effectiveCapacity()).isZero();
  }
}
