package io.bulwark.health.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.bulwark.api.fleet.NodeId;
import io.bulwark.api.health.CoverageGap;
import io.bulwark.api.health.DetectionContext;
import io.bulwark.api.health.Detector;
import io.bulwark.api.health.DetectorInput;
import io.bulwark.api.health.NodeCoverage;
import io.bulwark.api.telemetry.DcgmField;
import io.bulwark.testing.InMemoryFleet;
import io.bulwark.testing.InMemoryTelemetry;
import java.util.List;
import org.junit.jupiter.api.Test;

class DetectorCoverageTest {
  private final ManualClock clock = new ManualClock(1_700_000_000_000L);
  private final InMemoryTelemetry telemetry = new InMemoryTelemetry();
  private final HealthEngine engine =
      new HealthEngine(
          telemetry,
          new InMemoryFleet(),
          new InMemoryFindings(),
          new HealthEngineOptions(2000, 10_000, 0),
          clock);

  private static Detector reading(String name, DetectorInput... inputs) {
    return new Detector() {
      @Override
      public String name() {
        return name;
      }

      @Override
      public List<io.bulwark.api.health.Condition> evaluate(DetectionContext context) {
        return List.of();
      }

      @Override
      public List<DetectorInput> inputs() {
        return List.of(inputs);
      }
    };
  }

  @Test
  void aNodeWhoseExporterLacksADetectorsFieldIsNamedWithTheMissingField() {
    engine.addDetector(reading("xid", DetectorInput.of(DcgmField.XID_ERRORS)));
    engine.addDetector(
        reading(
            "thermal-margin",
            DetectorInput.of(DcgmField.GPU_TEMP),
            DetectorInput.anyOf(DcgmField.SLOWDOWN_TEMP, DcgmField.GPU_MAX_OP_TEMP)));
    NodeId full = NodeId.of("gpu-full");
    NodeId partial = NodeId.of("gpu-partial");
    telemetry.report(full, List.of(), clock.millis());
    telemetry.report(partial, List.of(), clock.millis());
    for (int gpu = 0; gpu < 2; gpu++) {
      telemetry.add(full, gpu, DcgmField.XID_ERRORS, clock.millis(), 0);
      telemetry.add(full, gpu, DcgmField.GPU_TEMP, clock.millis(), 60);
      // the alternative field serves the input as well as the preferred one
      telemetry.add(full, gpu, DcgmField.GPU_MAX_OP_TEMP, clock.millis(), 90);
      telemetry.add(partial, gpu, DcgmField.GPU_TEMP, clock.millis(), 60);
    }

    List<NodeCoverage> coverage = engine.coverage();

    assertThat(coverage).extracting(NodeCoverage::node).containsExactlyInAnyOrder(full, partial);
    assertThat(coverage.stream().filter(c -> c.node().equals(full)).findFirst().orElseThrow())
        .satisfies(c -> assertThat(c.complete()).isTrue());
    NodeCoverage lacking =
        coverage.stream().filter(c -> c.node().equals(partial)).findFirst().orElseThrow();
    assertThat(lacking.gaps())
        .extracting(CoverageGap::detector)
        .containsExactly("xid", "thermal-margin");
    assertThat(lacking.gaps().get(1).missing())
        .singleElement()
        .satisfies(
            m ->
                assertThat(m.describe())
                    .isEqualTo("DCGM_FI_DEV_SLOWDOWN_TEMP (or DCGM_FI_DEV_GPU_MAX_OP_TEMP)"));
  }

  @Test
  void aNodeThatStoppedReportingIsNotJudged() {
    engine.addDetector(reading("xid", DetectorInput.of(DcgmField.XID_ERRORS)));
    telemetry.report(NodeId.of("gpu-silent"), List.of(), clock.millis());
    clock.advance(11_000);
    telemetry.report(NodeId.of("gpu-reporting"), List.of(), clock.millis());

    assertThat(engine.coverage())
        .extracting(NodeCoverage::node)
        .containsExactly(NodeId.of("gpu-reporting"));
  }

  @Test
  void aDetectorThatReadsNoFieldNeverMakesAGap() {
    engine.addDetector(reading("telemetry-stale"));
    telemetry.report(NodeId.of("gpu-a"), List.of(), clock.millis());

    assertThat(engine.coverage()).singleElement().satisfies(c -> assertThat(c.complete()).isTrue());
  }
}
