package io.bulwark.health.dcgm.internal;

import static io.bulwark.health.dcgm.internal.SimulatedFleet.node;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bulwark.api.fleet.NodeId;
import io.bulwark.api.health.Severity;
import io.bulwark.api.telemetry.DcgmField;
import io.bulwark.testing.TypedConfig;
import java.util.Map;
import org.junit.jupiter.api.Test;

class InterconnectDetectorsTest {
  private final SimulatedFleet fleet = new SimulatedFleet(2, 8, "H100");
  private final NvlinkErrorDetector nvlink =
      new NvlinkErrorDetector(TypedConfig.of(NvlinkErrorDetectorConfig.class, Map.of()));
  private final PcieReplayDetector replay =
      new PcieReplayDetector(TypedConfig.of(PcieReplayDetectorConfig.class, Map.of()));
  private final PcieLinkDetector link = new PcieLinkDetector(PcieLinkOptions.defaults());

  /** GPU {@code gpu} of gpu-node-001 reports {@code metric} as {@code f(second)}. */
  private void counter(int gpu, String metric, java.util.function.LongToDoubleFunction f) {
    NodeId target = node(1);
    fleet.with(
        (n, g, m, s, sound) ->
            n.equals(target) && g == gpu && m.equals(metric) ? f.applyAsDouble(s) : null);
  }

  @Test
  void healthy_links_raise_nothing() {
    fleet.run(150);
    assertThat(nvlink.evaluate(fleet.context())).isEmpty();
    assertThat(replay.evaluate(fleet.context())).isEmpty();
    assertThat(link.evaluate(fleet.context())).isEmpty();
  }

  @Test
  void a_high_crc_rate_and_a_link_recovery_are_nvlink_errors_but_a_low_crc_rate_is_not() {
    counter(2, DcgmField.NVLINK_CRC_FLIT_ERRORS, s -> 150.0 * s);
    counter(3, DcgmField.NVLINK_CRC_DATA_ERRORS, s -> 20.0 * s);
    counter(4, DcgmField.NVLINK_RECOVERY_ERRORS, s -> s >= 50 ? 1 : 0);
    fleet.run(60);

    assertThat(nvlink.evaluate(fleet.context()))
        .hasSize(2)
        .anySatisfy(
            c -> {
              assertThat(c.gpu()).isEqualTo(2);
              assertThat(c.kind()).isEqualTo("nvlink-errors");
              assertThat(c.severity()).isEqualTo(Severity.WARNING);
              assertThat(c.evidence()).containsEntry("metric", DcgmField.NVLINK_CRC_FLIT_ERRORS);
              assertThat(c.summary()).contains("150 CRC flit errors/s");
              assertThat(c.performanceFactor()).isEqualTo(0.9);
            })
        .anySatisfy(
            c -> {
              assertThat(c.gpu()).isEqualTo(4);
              assertThat(c.summary()).contains("1 recovery error(s)");
            });
  }

  @Test
  void a_counter_reset_by_a_gpu_reset_is_not_a_burst_of_errors() {
    counter(5, DcgmField.NVLINK_REPLAY_ERRORS, s -> s < 30 ? 5000 : 0);
    counter(5, DcgmField.PCIE_REPLAY_COUNTER, s -> s < 30 ? 90_000 : 0);
    fleet.run(60);

    assertThat(nvlink.evaluate(fleet.context())).isEmpty();
    assertThat(replay.evaluate(fleet.context())).isEmpty();
  }

  @Test
  void pcie_replays_above_eight_a_minute_are_a_warning_and_below_are_not() {
    counter(0, DcgmField.PCIE_REPLAY_COUNTER, s -> 12 + s / 5);
    counter(1, DcgmField.PCIE_REPLAY_COUNTER, s -> 12 + s / 10);
    fleet.run(120);

    assertThat(replay.evaluate(fleet.context()))
        .singleElement()
        .satisfies(
            c -> {
              assertThat(c.kind()).isEqualTo("pcie-replay");
              assertThat(c.gpu()).isZero();
              assertThat(c.evidence()).containsEntry("window", "last 120 s");
              assertThat(Double.parseDouble(c.evidence().get("replaysPerMinute")))
                  .isBetween(11.0, 13.0);
            });
  }

  @Test
  void a_narrow_link_is_downtrained_busy_or_idle() {
    counter(6, DcgmField.PCIE_LINK_WIDTH, s -> 8);
    counter(6, DcgmField.GPU_UTIL, s -> 0);
    fleet.run(30);

    assertThat(link.evaluate(fleet.context()))
        .singleElement()
        .satisfies(
            c -> {
              assertThat(c.kind()).isEqualTo("pcie-downtrained");
              assertThat(c.gpu()).isEqualTo(6);
              assertThat(c.summary()).contains("x8 instead of x16");
            });
  }

  @Test
  void a_low_generation_counts_only_while_busy_and_when_busy_peers_run_higher() {
    counter(1, DcgmField.PCIE_LINK_GEN, s -> 3);
    counter(2, DcgmField.PCIE_LINK_GEN, s -> 1);
    counter(2, DcgmField.GPU_UTIL, s -> 0);
    fleet.run(30);
    assertThat(link.evaluate(fleet.context()))
        .singleElement()
        .satisfies(
            c -> {
              assertThat(c.gpu()).isEqualTo(1);
              assertThat(c.summary()).contains("Gen3 instead of Gen5");
            });

    SimulatedFleet platform = new SimulatedFleet(1, 8, "H100");
    platform.with((n, g, m, s, sound) -> m.equals(DcgmField.PCIE_LINK_GEN) ? 4.0 : null);
    platform.run(30);
    assertThat(link.evaluate(platform.context())).isEmpty();
  }

  @Test
  void invalid_values_name_the_property() {
    assertThatThrownBy(
            () ->
                new NvlinkErrorDetector(
                    TypedConfig.of(NvlinkErrorDetectorConfig.class, Map.of("minSpanSeconds", 60))))
        .hasMessageContaining("minSpanSeconds");
    assertThatThrownBy(
            () ->
                new PcieReplayDetector(
                    TypedConfig.of(
                        PcieReplayDetectorConfig.class, Map.of("replaysPerMinute", 0.0))))
        .hasMessageContaining("replaysPerMinute");
    assertThatThrownBy(
            () ->
                new PcieLinkDetector(
                    TypedConfig.of(PcieLinkDetectorConfig.class, Map.of("sustainedFraction", 0.0))))
        .hasMessageContaining("sustainedFraction");
  }
}
