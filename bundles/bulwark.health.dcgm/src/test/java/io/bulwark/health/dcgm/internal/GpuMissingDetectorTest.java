package io.bulwark.health.dcgm.internal;

import static io.bulwark.health.dcgm.internal.SimulatedFleet.node;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bulwark.api.fleet.Gpu;
import io.bulwark.api.health.Severity;
import io.bulwark.api.telemetry.TelemetryQuery;
import io.bulwark.testing.TypedConfig;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class GpuMissingDetectorTest {
  private final SimulatedFleet fleet = new SimulatedFleet(3, 8, "H100");
  private final GpuMissingDetector detector = new GpuMissingDetector(30);

  @Test
  void an_inventory_gpu_that_a_freshly_scraped_node_no_longer_reports_is_critical() {
    fleet.run(5);
    assertThat(detector.evaluate(fleet.context())).isEmpty();

    fleet.drop(node(1), 6);
    fleet.run(1);

    assertThat(detector.evaluate(fleet.context()))
        .singleElement()
        .satisfies(
            c -> {
              assertThat(c.kind()).isEqualTo("gpu-missing");
              assertThat(c.node()).isEqualTo(node(1));
              assertThat(c.gpu()).isEqualTo(6);
              assertThat(c.severity()).isEqualTo(Severity.CRITICAL);
              assertThat(c.summary())
                  .contains("7 of 8 GPUs reported")
                  .contains("fallen off the bus");
              assertThat(c.evidence())
                  .containsEntry("values", "[0, 1, 2, 3, 4, 5, 7]")
                  .containsEntry("uuid", "GPU-gpu-node-001-6")
                  .containsEntry("window", "last 30 s");
              assertThat(c.recommendedAction()).contains("Drain gpu-node-001").contains("GPU 6");
            });
  }

  @Test
  void a_node_not_scraped_recently_is_not_judged() {
    fleet.run(5);
    TelemetryQuery telemetry = fleet.telemetry;
    fleet.telemetry.report(node(2), List.of(new Gpu(0, "", "H100")), fleet.now() - 31_000);

    assertThat(
            detector.evaluate(
                new SimulatedFleet.TestContext(telemetry, fleet.inventory(), fleet.now())))
        .isEmpty();

    fleet.telemetry.report(node(2), List.of(new Gpu(0, "", "H100")), fleet.now() - 29_000);
    assertThat(detector.evaluate(fleet.context()))
        .hasSize(7)
        .allSatisfy(c -> assertThat(c.node()).isEqualTo(node(2)));
  }

  @Test
  void an_invalid_freshness_names_the_property() {
    assertThatThrownBy(
            () ->
                new GpuMissingDetector(
                    TypedConfig.of(
                        GpuMissingDetectorConfig.class, Map.of("scrapeFreshSeconds", 0))))
        .hasMessageContaining("scrapeFreshSeconds");
    assertThat(
            new GpuMissingDetector(TypedConfig.of(GpuMissingDetectorConfig.class, Map.of())).name())
        .isEqualTo("gpu-missing");
  }
}
