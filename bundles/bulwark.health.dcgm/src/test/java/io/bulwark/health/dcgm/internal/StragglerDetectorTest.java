package io.bulwark.health.dcgm.internal;

import static io.bulwark.health.dcgm.internal.SimulatedFleet.node;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.bulwark.api.fleet.NodeId;
import io.bulwark.api.health.Condition;
import io.bulwark.api.health.Severity;
import io.bulwark.api.telemetry.ClockEventReason;
import io.bulwark.api.telemetry.DcgmField;
import io.bulwark.testing.TypedConfig;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StragglerDetectorTest {
  private final SimulatedFleet fleet = new SimulatedFleet(4, 8, "H100");
  private final StragglerDetector detector = new StragglerDetector(StragglerOptions.defaults());

  /** From second {@code from}, GPU {@code gpu} of node {@code node} reports {@code metric}. */
  private void set(int node, int gpu, String metric, double value, long from) {
    NodeId target = node(node);
    fleet.with(
        (n, g, m, s, sound) ->
            n.equals(target) && g == gpu && m.equals(metric) && s >= from ? value : null);
  }

  /** From second {@code from} to {@code to}, scales {@code metric} of a GPU by {@code factor}. */
  private void scale(int node, int gpu, String metric, double factor, long from, long to) {
    NodeId target = node(node);
    fleet.with(
        (n, g, m, s, sound) ->
            n.equals(target) && g == gpu && m.equals(metric) && s >= from && s <= to
                ? sound * factor
                : null);
  }

  @Test
  void a_gpu_clocked_well_below_its_node_peers_is_a_straggler_priced_by_its_clock() {
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
                  .containsEntry("peers", "7 other H100 GPUs on gpu-node-002")
                  .containsEntry("window", "last 120 s")
                  .containsKeys("threshold", "smClock.cusum", "smClock.lastZ", "smClock.since");
              assertThat(Double.parseDouble(c.evidence().get("smClock.cusum"))).isGreaterThan(12);
              assertThat(c.summary()).contains("GPU 5 of gpu-node-002").contains("7 H100 peers");
              assertThat(c.recommendedAction())
                  .contains("Drain gpu-node-002")
                  .contains("RMA GPU 5");
            });
  }

  @Test
  void a_sustained_ten_percent_slowdown_is_caught_within_fifteen_seconds_and_peers_never() {
    long onset = 60;
    scale(1, 3, DcgmField.SM_CLOCK, 0.9, onset, Long.MAX_VALUE);
    fleet.run((int) onset);
    assertThat(detector.evaluate(fleet.context())).isEmpty();

    long detectedAfter = -1;
    for (int s = 1; s <= 90 && detectedAfter < 0; s++) {
      fleet.run(1);
      List<Condition> conditions = detector.evaluate(fleet.context());
      assertThat(conditions)
          .allSatisfy(
              c -> {
                assertThat(c.node()).isEqualTo(node(1));
                assertThat(c.gpu()).isEqualTo(3);
              });
      if (!conditions.isEmpty()) {
        detectedAfter = fleet.secondsSinceStart() - onset;
        assertThat(conditions.get(0).performanceFactor()).isCloseTo(0.9, within(0.02));
      }
    }
    assertThat(detectedAfter).isBetween(5L, 15L);
  }

  @Test
  void a_deep_stall_shorter_than_the_minimum_lag_is_no_straggler_but_a_longer_one_is() {
    // 8 s at 40% down: the CUSUM passes the threshold after 6 s, but the GPU has not lagged 10 s.
    scale(2, 1, DcgmField.SM_CLOCK, 0.6, 30, 37);
    for (int s = 0; s < 60; s++) {
      fleet.run(1);
      assertThat(detector.evaluate(fleet.context())).as("second " + s).isEmpty();
    }
    // 15 s into a stall as deep, it lags.
    scale(2, 1, DcgmField.SM_CLOCK, 0.6, 70, 90);
    fleet.run(25);
    assertThat(detector.evaluate(fleet.context()))
        .singleElement()
        .satisfies(c -> assertThat(c.gpu()).isEqualTo(1));
  }

  @Test
  void short_noise_even_deep_does_not_make_a_straggler() {
    scale(1, 2, DcgmField.SM_CLOCK, 0.5, 18, 18);
    scale(3, 4, DcgmField.SM_CLOCK, 0.6, 30, 35);
    scale(0, 1, DcgmField.SM_ACTIVE, 0.5, 40, 44);
    fleet.run(60);

    assertThat(detector.evaluate(fleet.context())).isEmpty();
  }

  @Test
  void a_drop_within_the_allowance_is_not_a_straggler() {
    scale(0, 0, DcgmField.SM_CLOCK, 0.96, 0, Long.MAX_VALUE);
    fleet.run(150);

    assertThat(detector.evaluate(fleet.context())).isEmpty();
  }

  @Test
  void a_whole_node_slowing_down_together_is_not_a_straggler() {
    NodeId slow = node(3);
    fleet.with(
        (n, g, m, s, sound) ->
            n.equals(slow) && m.equals(DcgmField.SM_CLOCK) && s >= 10 ? sound * 0.7 : null);
    fleet.run(60);

    assertThat(detector.evaluate(fleet.context())).isEmpty();
  }

  @Test
  void a_straggler_clears_once_it_recovers() {
    scale(2, 6, DcgmField.SM_CLOCK, 0.7, 0, 40);
    fleet.run(41);
    assertThat(detector.evaluate(fleet.context())).hasSize(1);

    fleet.run(60);
    assertThat(detector.evaluate(fleet.context())).isEmpty();
  }

  @Test
  void fewer_busy_peers_than_the_minimum_are_not_enough_to_judge() {
    SimulatedFleet small = new SimulatedFleet(1, 3, "H100");
    small.with((n, g, m, s, sound) -> g == 0 && m.equals(DcgmField.SM_CLOCK) ? 1000.0 : null);
    small.run(30);
    assertThat(detector.evaluate(small.context())).isEmpty();

    SimulatedFleet idlePeers = new SimulatedFleet(1, 8, "H100");
    idlePeers.with((n, g, m, s, sound) -> g == 0 && m.equals(DcgmField.SM_CLOCK) ? 1000.0 : null);
    idlePeers.with((n, g, m, s, sound) -> g >= 3 && m.equals(DcgmField.GPU_UTIL) ? 0.0 : null);
    idlePeers.run(30);
    assertThat(detector.evaluate(idlePeers.context())).isEmpty();
  }

  @Test
  void gpus_are_compared_with_peers_of_their_own_model_on_their_node_only() {
    fleet.add(1, 8, "A100", 10);
    NodeId mixed = node(10);
    fleet.with(
        (n, g, m, s, sound) -> n.equals(mixed) && m.equals(DcgmField.SM_CLOCK) ? 1410.0 : null);
    fleet.run(40);

    assertThat(detector.evaluate(fleet.context())).isEmpty();

    fleet.with(
        (n, g, m, s, sound) ->
            n.equals(mixed) && g == 0 && m.equals(DcgmField.SM_CLOCK) ? 1100.0 : null);
    fleet.run(40);
    assertThat(detector.evaluate(fleet.context()))
        .singleElement()
        .satisfies(
            c -> {
              assertThat(c.node()).isEqualTo(mixed);
              assertThat(c.gpu()).isZero();
              assertThat(c.evidence()).containsEntry("peers", "7 other A100 GPUs on gpu-node-010");
            });
  }

  @Test
  void an_idle_gpu_with_low_clocks_is_neither_a_straggler_nor_a_peer() {
    set(0, 3, DcgmField.GPU_UTIL, 0, 0);
    set(0, 3, DcgmField.SM_CLOCK, 210, 0);
    set(0, 3, DcgmField.SM_ACTIVE, 0, 0);
    fleet.run(60);

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
            n.equals(target) && g == 6 && m.equals(DcgmField.CLOCKS_EVENT_REASONS) && s % 3 == 0
                ? (double) ClockEventReason.SW_POWER_CAP.mask()
                : null);
    fleet.run(30);

    assertThat(detector.evaluate(fleet.context()))
        .singleElement()
        .satisfies(
            c -> {
              assertThat(c.gpu()).isEqualTo(6);
              assertThat(c.evidence().get("throttledSamples")).isEqualTo("33%");
            });
  }

  @Test
  void low_sm_activity_or_power_at_a_sound_clock_is_a_straggler_when_compared() {
    set(3, 2, DcgmField.SM_ACTIVE, 0.4, 0);
    set(2, 1, DcgmField.POWER_USAGE, 400, 0);
    fleet.run(30);

    assertThat(detector.evaluate(fleet.context()))
        .hasSize(2)
        .anySatisfy(
            c -> {
              assertThat(c.gpu()).isEqualTo(2);
              assertThat(c.evidence()).containsEntry("metric", DcgmField.SM_ACTIVE);
              assertThat(c.performanceFactor()).isCloseTo(0.5, within(0.03));
            })
        .anySatisfy(
            c -> {
              assertThat(c.gpu()).isEqualTo(1);
              assertThat(c.evidence()).containsEntry("laggingMetrics", DcgmField.POWER_USAGE);
              assertThat(c.performanceFactor()).isEqualTo(1.0);
            });
    StragglerDetector clockOnly =
        new StragglerDetector(
            TypedConfig.of(
                StragglerDetectorConfig.class,
                Map.of("compareSmActive", false, "comparePower", false)));
    assertThat(clockOnly.evaluate(fleet.context())).isEmpty();
  }

  @Test
  void invalid_values_name_the_property() {
    assertThat(StragglerOptions.from(TypedConfig.of(StragglerDetectorConfig.class, Map.of())))
        .isEqualTo(StragglerOptions.defaults());
    for (var bad :
        Map.<String, Object>of(
                "deviationFloor",
                0.0,
                "allowance",
                -1.0,
                "minPeers",
                1,
                "windowSeconds",
                0,
                "decisionThreshold",
                0.0,
                "zCap",
                1.0)
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
