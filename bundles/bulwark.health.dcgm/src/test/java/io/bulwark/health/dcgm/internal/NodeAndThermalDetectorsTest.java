package io.bulwark.health.dcgm.internal;

import static io.bulwark.health.dcgm.internal.SimulatedFleet.node;
import static org.assertj.core.api.Assertions.assertThat;

import io.bulwark.api.fleet.NodeId;
import io.bulwark.api.health.Severity;
import io.bulwark.api.telemetry.ClockEventReason;
import io.bulwark.api.telemetry.DcgmField;
import io.bulwark.api.telemetry.SeriesId;
import org.junit.jupiter.api.Test;

class NodeAndThermalDetectorsTest {
  private final SimulatedFleet fleet = new SimulatedFleet(3, 8, "H100");
  private final ThermalMarginDetector margin =
      new ThermalMarginDetector(ThermalMarginOptions.defaults());
  private final TelemetryStaleDetector stale = new TelemetryStaleDetector(30);
  private final GpuMissingDetector missing = new GpuMissingDetector(30);

  private void temp(int node, int gpu, double celsius, long from) {
    NodeId target = node(node);
    fleet.with(
        (n, g, m, s, sound) ->
            n.equals(target) && g == gpu && m.equals(DcgmField.GPU_TEMP) && s >= from
                ? celsius
                : null);
  }

  @Test
  void healthy_temperatures_raise_nothing() {
    fleet.run(90);
    assertThat(margin.evaluate(fleet.context())).isEmpty();
  }

  @Test
  void a_gpu_a_few_degrees_from_slowdown_has_a_thin_margin() {
    temp(1, 2, 84, 0);
    fleet.run(60);

    assertThat(margin.evaluate(fleet.context()))
        .singleElement()
        .satisfies(
            c -> {
              assertThat(c.kind()).isEqualTo("thermal-margin");
              assertThat(c.gpu()).isEqualTo(2);
              assertThat(c.severity()).isEqualTo(Severity.WARNING);
              assertThat(c.performanceFactor()).isEqualTo(1.0);
              assertThat(c.evidence())
                  .containsEntry("slowdownTempCelsius", "87")
                  .containsEntry("medianMarginCelsius", "3");
              assertThat(c.summary())
                  .contains("3 °C below its slowdown temperature")
                  .endsWith("it will throttle soon");
            });
  }

  @Test
  void a_thin_margin_on_a_gpu_that_already_throttles_for_heat_says_so_not_that_it_will() {
    temp(1, 2, 86, 0);
    NodeId hot = node(1);
    fleet.with(
        (n, g, m, s, sound) ->
            n.equals(hot) && g == 2 && m.equals(DcgmField.CLOCKS_EVENT_REASONS)
                ? (double) ClockEventReason.SW_THERMAL_SLOWDOWN.mask()
                : null);
    fleet.run(60);

    assertThat(margin.evaluate(fleet.context()))
        .singleElement()
        .satisfies(
            c -> {
              assertThat(c.summary())
                  .contains("1 °C below its slowdown temperature")
                  .contains("already held down for heat")
                  .doesNotContain("will throttle soon");
              assertThat(c.evidence()).containsEntry("throttlingForHeat", "yes");
            });
  }

  @Test
  void a_busy_gpu_much_hotter_than_its_node_peers_is_reported_but_not_an_idle_or_brief_one() {
    temp(0, 5, 78, 0);
    temp(2, 1, 78, 55);
    NodeId idle = node(2);
    fleet.with(
        (n, g, m, s, sound) -> {
          if (!n.equals(idle) || g != 6) {
            return null;
          }
          if (m.equals(DcgmField.GPU_TEMP)) {
            return 30.0;
          }
          return m.equals(DcgmField.GPU_UTIL) ? Double.valueOf(0) : null;
        });
    fleet.run(60);

    assertThat(margin.evaluate(fleet.context()))
        .singleElement()
        .satisfies(
            c -> {
              assertThat(c.node()).isEqualTo(node(0));
              assertThat(c.gpu()).isEqualTo(5);
              assertThat(c.summary()).contains("°C hotter than its 7 busy peers");
              assertThat(Double.parseDouble(c.evidence().get("peerMedianGpuTempCelsius")))
                  .isBetween(63.0, 65.0);
            });
  }

  @Test
  void a_node_whose_target_stops_answering_is_stale_once_and_its_gpus_are_not_missing() {
    fleet.run(10);
    fleet.telemetry.scrapedAt(node(1), fleet.now() - 45_000);

    assertThat(stale.evaluate(fleet.context()))
        .singleElement()
        .satisfies(
            c -> {
              assertThat(c.kind()).isEqualTo("telemetry-stale");
              assertThat(c.node()).isEqualTo(node(1));
              assertThat(c.gpu()).isEqualTo(SeriesId.NODE_LEVEL);
              assertThat(c.severity()).isEqualTo(Severity.WARNING);
              assertThat(c.evidence()).containsEntry("silentSeconds", "45");
              assertThat(c.summary()).contains("8 GPU(s)");
            });
    fleet.drop(node(1), 3);
    assertThat(missing.evaluate(fleet.context())).isEmpty();

    fleet.run(1);
    assertThat(stale.evaluate(fleet.context())).isEmpty();
    assertThat(missing.evaluate(fleet.context()))
        .singleElement()
        .satisfies(c -> assertThat(c.gpu()).isEqualTo(3));
  }

  @Test
  void a_node_never_scraped_is_not_stale() {
    SimulatedFleet unscraped = new SimulatedFleet(1, 8, "H100");
    assertThat(stale.evaluate(unscraped.context())).isEmpty();
  }
}
