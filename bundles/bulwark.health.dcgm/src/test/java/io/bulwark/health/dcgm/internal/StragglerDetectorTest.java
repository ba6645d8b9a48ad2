package io.bulwark.health.dcgm.internal;

import static io.bulwark.health.dcgm.internal.SimulatedFleet.node;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.bulwark.api.fleet.NodeId;
import io.bulwark.api.health.Severity;
import io.bulwark.api.telemetry.ClockEventReason;
import io.bulwark.api.telemetry.DcgmField;
import io.bulwark.testing.TypedConfig;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StragglerDetectorTest {
  private final SimulatedFleet fleet = new SimulatedFleet(4, 8, "H100");
  private final StragglerDetector detector = new StragglerDetector(StragglerOptions.defaults());

  /**
   * From second {@code from}, GPU {@code gpu} of node {@code node} reports {@code metric} as {@code
   * value}.
   */
  private void set(int node, int gpu, String metric, double value, long from) {
    NodeId target = node(node);
    fleet.with(
        (n, g, m, s, sound) ->
            n.equals(target) && g == gpu && m.equals(metric) && s >= from ? value : null);
  }

  @Test
  void a_gpu_clocked_well_below_its_busy_peers_is_a_straggler_priced_by_its_clock() {
    set(2, 5, DcgmField.SM_CLOCK, 1500, 0);
    fleet.run(20);

    assertThat(detector.evaluate(fleet.context()))
        .singleElement()
        .satisfies(
            c -> {
              assertThat(c.kind()).isEqualTo("straggler");
              assertThat(c.node()).isEqualTo(node(2));
              assertThat(c.gpu()).isEqualTo(5);
              assertThat(c.severity()).isEqualTo(Severity.WARNING);
              assertThat(c.performanceFactor()).isCloseTo(1500.0 / 1980, within(0.01));
              assertThat(c.evidence())
                  .containsEntry("metric", DcgmField.SM_CLOCK)
                  .containsEntry("smClockMedianMhz", "1500")
                  .containsEntry("peers", "31 other busy H100 GPUs")
                  .containsEntry("smClockSamplesBelow", "100%")
                  .containsEntry("window", "last 15 s")
                  .containsKeys("values", "threshold", "peerSmClockMedianMhz");
              assertThat(c.summary())
                  .contains("GPU 5 of gpu-node-002")
                  .contains("31 busy H100 peers");
              assertThat(c.recommendedAction())
                  .contains("Drain gpu-node-002")
                  .contains("RMA GPU 5");
            });
  }

  @Test
  void one_noisy_sample_does_not_make_a_straggler() {
    NodeId target = node(1);
    fleet.with(
        (n, g, m, s, sound) ->
            n.equals(target) && g == 2 && m.equals(DcgmField.SM_CLOCK) && s == 18 ? 900.0 : null);
    fleet.run(20);

    assertThat(detector.evaluate(fleet.context())).isEmpty();
  }

  @Test
  void a_drop_within_the_relative_margin_is_not_a_straggler() {
    set(0, 0, DcgmField.SM_CLOCK, 1780, 0);
    fleet.run(20);

    assertThat(detector.evaluate(fleet.context())).isEmpty();
  }

  @Test
  void a_slow_gpu_that_is_only_slow_part_of_the_window_is_not_yet_a_straggler() {
    set(3, 7, DcgmField.SM_CLOCK, 1200, 10);
    fleet.run(20);

    assertThat(detector.evaluate(fleet.context())).isEmpty();
  }

  @Test
  void fewer_than_eight_peers_are_not_enough_to_judge() {
    SimulatedFleet small = new SimulatedFleet(1, 8, "H100");
    small.with(
        (n, g, m, s, sound) ->
            n.equals(node(0)) && g == 0 && m.equals(DcgmField.SM_CLOCK) ? 1000.0 : null);
    small.run(20);
    assertThat(detector.evaluate(small.context())).isEmpty();

    small.add(1, 1, "H100", 1);
    small.run(20);
    assertThat(detector.evaluate(small.context()))
        .singleElement()
        .satisfies(
            c -> {
              assertThat(c.node()).isEqualTo(node(0));
              assertThat(c.gpu()).isZero();
            });
  }

  @Test
  void gpus_are_compared_with_peers_of_their_own_model_only() {
    fleet.add(1, 8, "A100", 10);
    fleet.with(
        (n, g, m, s, sound) -> n.equals(node(10)) && m.equals(DcgmField.SM_CLOCK) ? 1410.0 : null);
    fleet.with(
        (n, g, m, s, sound) ->
            n.equals(node(10)) && g == 0 && m.equals(DcgmField.SM_CLOCK) ? 1000.0 : null);
    fleet.run(20);

    assertThat(detector.evaluate(fleet.context())).isEmpty();

    fleet.add(1, 8, "A100", 11);
    fleet.with(
        (n, g, m, s, sound) -> n.equals(node(11)) && m.equals(DcgmField.SM_CLOCK) ? 1410.0 : null);
    fleet.run(20);
    assertThat(detector.evaluate(fleet.context()))
        .singleElement()
        .satisfies(
            c -> {
              assertThat(c.node()).isEqualTo(node(10));
              assertThat(c.gpu()).isZero();
              assertThat(c.evidence()).containsEntry("peerSmClockMedianMhz", "1410");
            });
  }

  @Test
  void an_idle_gpu_with_low_clocks_is_neither_a_straggler_nor_a_peer() {
    set(0, 3, DcgmField.GPU_UTIL, 0, 0);
    set(0, 3, DcgmField.SM_CLOCK, 210, 0);
    fleet.run(20);

    assertThat(detector.evaluate(fleet.context())).isEmpty();
  }

  @Test
  void a_gpu_slowed_by_a_sustained_throttle_is_left_to_the_throttle_detectors() {
    set(1, 1, DcgmField.SM_CLOCK, 1300, 0);
    set(1, 1, DcgmField.CLOCKS_EVENT_REASONS, ClockEventReason.SW_THERMAL_SLOWDOWN.mask(), 0);
    set(1, 6, DcgmField.SM_CLOCK, 1300, 0);
    NodeId target = node(1);
    fleet.with(
        (n, g, m, s, sound) ->
            n.equals(target) && g == 6 && m.equals(DcgmField.CLOCKS_EVENT_REASONS) && s % 2 == 0
                ? (double) ClockEventReason.SW_POWER_CAP.mask()
                : null);
    fleet.run(20);

    assertThat(detector.evaluate(fleet.context()))
        .singleElement()
        .satisfies(
            c -> {
              assertThat(c.gpu()).isEqualTo(6);
              assertThat(c.evidence().get("throttledSamples"))
                  .startsWith("53%")
                  .contains("throttle detectors");
            });
  }

  @Test
  void low_sm_activity_at_a_sound_clock_is_a_straggler_when_activity_is_compared() {
    set(3, 2, DcgmField.SM_ACTIVE, 0.4, 0);
    fleet.run(20);

    assertThat(detector.evaluate(fleet.context()))
        .singleElement()
        .satisfies(
            c -> {
              assertThat(c.gpu()).isEqualTo(2);
              assertThat(c.evidence())
                  .containsEntry("metric", DcgmField.SM_ACTIVE)
                  .containsEntry("smActiveMedian", "0.40");
              assertThat(c.performanceFactor()).isCloseTo(0.5, within(0.02));
            });
    StragglerDetector clockOnly =
        new StragglerDetector(
            TypedConfig.of(StragglerDetectorConfig.class, Map.of("compareSmActive", false)));
    assertThat(clockOnly.evaluate(fleet.context())).isEmpty();
  }

  @Test
  void a_straggler_injected_at_runtime_is_seen_within_fifteen_seconds_and_its_peers_never() {
    long onset = 40;
    set(2, 4, DcgmField.SM_CLOCK, 1400, onset);
    fleet.run((int) onset);
    assertThat(detector.evaluate(fleet.context())).isEmpty();

    long detectedAfter = -1;
    for (int s = 1; s <= 20 && detectedAfter < 0; s++) {
      fleet.run(1);
      var conditions = detector.evaluate(fleet.context());
      assertThat(conditions).allSatisfy(c -> assertThat(c.gpu()).isEqualTo(4));
      if (!conditions.isEmpty()) {
        detectedAfter = fleet.secondsSinceStart() - onset;
      }
    }
    assertThat(detectedAfter).isBetween(1L, 15L);
  }

  @Test
  void invalid_values_name_the_property() {
    assertThat(StragglerOptions.from(TypedConfig.of(StragglerDetectorConfig.class, Map.of())))
        .isEqualTo(StragglerOptions.defaults());
    for (var bad :
        Map.<String, Object>of(
                "relativeDrop",
                1.0,
                "madMultiplier",
                -1.0,
                "minPeers",
                1,
                "windowSeconds",
                0,
                "sustainedFraction",
                0.0,
                "minSamples",
                0)
            .entrySet()) {
      assertThatThrownBy(
              () ->
                  new StragglerDetector(
                      TypedConfig.of(
                          StragglerDetectorConfig.class, Map.of(bad.getKey(), bad.getValue()))))
          .hasMessageContaining(bad.getKey());
    }
  }
}
