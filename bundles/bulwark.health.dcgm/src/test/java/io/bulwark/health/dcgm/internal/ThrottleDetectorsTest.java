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

class ThrottleDetectorsTest {
  private static final long THERMAL = ClockEventReason.SW_THERMAL_SLOWDOWN.mask();
  private static final long POWER_CAP = ClockEventReason.SW_POWER_CAP.mask();
  private static final long IDLE = ClockEventReason.GPU_IDLE.mask();

  private final SimulatedFleet fleet = new SimulatedFleet(2, 8, "H100");
  private final ThermalThrottleDetector thermal =
      new ThermalThrottleDetector(ThermalThrottleOptions.defaults());
  private final PowerThrottleDetector power = new PowerThrottleDetector(ThrottleOptions.defaults());

  /**
   * From second {@code from}, GPU {@code gpu} of gpu-node-001 reports {@code metric} as {@code
   * value}.
   */
  private void set(int gpu, String metric, double value, long from) {
    NodeId target = node(1);
    fleet.with(
        (n, g, m, s, sound) ->
            n.equals(target) && g == gpu && m.equals(metric) && s >= from ? value : null);
  }

  @Test
  void a_busy_gpu_throttled_for_heat_throughout_the_window_is_a_warning_priced_by_its_clock() {
    set(3, DcgmField.CLOCKS_EVENT_REASONS, THERMAL, 5);
    set(3, DcgmField.SM_CLOCK, 1386, 5);
    set(3, DcgmField.GPU_TEMP, 91, 5);
    fleet.run(20);

    assertThat(thermal.evaluate(fleet.context()))
        .singleElement()
        .satisfies(
            c -> {
              assertThat(c.kind()).isEqualTo("thermal-throttle");
              assertThat(c.node()).isEqualTo(node(1));
              assertThat(c.gpu()).isEqualTo(3);
              assertThat(c.severity()).isEqualTo(Severity.WARNING);
              assertThat(c.performanceFactor()).isCloseTo(1386.0 / 1980, within(0.01));
              assertThat(c.evidence())
                  .containsEntry("metric", DcgmField.CLOCKS_EVENT_REASONS)
                  .containsEntry("reasonsSeen", "SW_THERMAL_SLOWDOWN")
                  .containsEntry("throttledSamples", "10 of 10")
                  .containsEntry("window", "last 10 s")
                  .containsEntry("medianGpuTempCelsius", "91")
                  .containsKeys("values", "threshold", "referenceSmClockMhz");
              assertThat(c.summary())
                  .contains("GPU 3 of gpu-node-001")
                  .contains("running at " + Evidence.percent(c.performanceFactor()));
              assertThat(c.recommendedAction()).contains("cooling of gpu-node-001");
            });
    assertThat(power.evaluate(fleet.context())).isEmpty();
  }

  @Test
  void a_sustained_power_cap_is_a_power_throttle_warning_and_not_a_thermal_one() {
    set(
        5,
        DcgmField.CLOCKS_EVENT_REASONS,
        POWER_CAP | ClockEventReason.HW_POWER_BRAKE_SLOWDOWN.mask(),
        0);
    set(5, DcgmField.SM_CLOCK, 990, 0);
    fleet.run(12);

    assertThat(power.evaluate(fleet.context()))
        .singleElement()
        .satisfies(
            c -> {
              assertThat(c.kind()).isEqualTo("power-throttle");
              assertThat(c.gpu()).isEqualTo(5);
              assertThat(c.performanceFactor()).isCloseTo(0.5, within(0.01));
              assertThat(c.evidence()).containsEntry("powerLimitWatts", "700");
              assertThat(c.summary()).contains("power brake");
            });
    assertThat(thermal.evaluate(fleet.context())).isEmpty();
  }

  @Test
  void throttle_bits_on_an_idle_gpu_are_ignored() {
    set(2, DcgmField.CLOCKS_EVENT_REASONS, THERMAL | IDLE, 0);
    set(2, DcgmField.GPU_UTIL, 0, 0);
    set(4, DcgmField.CLOCKS_EVENT_REASONS, POWER_CAP, 0);
    set(4, DcgmField.GPU_UTIL, 10, 0);
    fleet.run(15);

    assertThat(thermal.evaluate(fleet.context())).isEmpty();
    assertThat(power.evaluate(fleet.context())).isEmpty();
  }

  @Test
  void without_utilisation_a_clear_idle_bit_makes_the_gpu_busy() {
    fleet.with((n, g, m, s, sound) -> m.equals(DcgmField.GPU_UTIL) ? Double.NaN : null);
    set(1, DcgmField.CLOCKS_EVENT_REASONS, ClockEventReason.HW_THERMAL_SLOWDOWN.mask(), 0);
    set(6, DcgmField.CLOCKS_EVENT_REASONS, ClockEventReason.HW_THERMAL_SLOWDOWN.mask() | IDLE, 0);
    fleet.run(10);

    assertThat(thermal.evaluate(fleet.context()))
        .singleElement()
        .satisfies(
            c -> {
              assertThat(c.gpu()).isEqualTo(1);
              assertThat(c.evidence().get("busy")).contains("GPU_IDLE bit clear in 10 of 10");
            });
  }

  @Test
  void a_throttle_bit_in_fewer_than_the_sustained_share_of_samples_is_noise() {
    NodeId target = node(0);
    fleet.with(
        (n, g, m, s, sound) ->
            n.equals(target) && g == 0 && m.equals(DcgmField.CLOCKS_EVENT_REASONS) && s % 2 == 0
                ? (double) THERMAL
                : null);
    fleet.run(30);

    assertThat(thermal.evaluate(fleet.context())).isEmpty();
  }

  @Test
  void
      a_power_violation_counter_growing_with_the_clock_is_a_power_throttle_even_between_bit_samples() {
    // The reason bits are sampled once a second and happen to read clear; the driver's
    // violation-time counter (ns) grows by 0.9 s every second.
    NodeId target = node(1);
    fleet.with(
        (n, g, m, s, sound) ->
            n.equals(target) && g == 4 && m.equals(DcgmField.POWER_VIOLATION)
                ? s * 900_000_000.0
                : null);
    set(4, DcgmField.SM_CLOCK, 1100, 0);
    fleet.run(15);

    assertThat(power.evaluate(fleet.context()))
        .singleElement()
        .satisfies(
            c -> {
              assertThat(c.gpu()).isEqualTo(4);
              assertThat(c.summary()).contains("violation-time counter");
              assertThat(c.evidence()).containsEntry("violationTimeShare", "90%");
            });
    assertThat(thermal.evaluate(fleet.context())).isEmpty();
  }

  @Test
  void a_violation_counter_growing_for_a_third_of_the_time_is_not_sustained() {
    NodeId target = node(1);
    fleet.with(
        (n, g, m, s, sound) ->
            n.equals(target) && g == 2 && m.equals(DcgmField.THERMAL_VIOLATION)
                ? s * 330_000_000.0
                : null);
    fleet.run(15);

    assertThat(thermal.evaluate(fleet.context())).isEmpty();
  }

  @Test
  void fewer_than_five_samples_are_not_judged() {
    set(0, DcgmField.CLOCKS_EVENT_REASONS, THERMAL, 0);
    fleet.run(4);
    assertThat(thermal.evaluate(fleet.context())).isEmpty();

    fleet.run(1);
    assertThat(thermal.evaluate(fleet.context())).hasSize(1);
  }

  @Test
  void hardware_slowdown_counts_as_thermal_only_when_the_gpu_runs_hot() {
    set(0, DcgmField.CLOCKS_EVENT_REASONS, ClockEventReason.HW_SLOWDOWN.mask(), 0);
    set(7, DcgmField.CLOCKS_EVENT_REASONS, ClockEventReason.HW_SLOWDOWN.mask(), 0);
    set(7, DcgmField.GPU_TEMP, 88, 0);
    fleet.run(10);

    assertThat(thermal.evaluate(fleet.context()))
        .singleElement()
        .satisfies(c -> assertThat(c.gpu()).isEqualTo(7));
  }

  @Test
  void the_performance_factor_is_clamped_to_five_percent() {
    set(0, DcgmField.CLOCKS_EVENT_REASONS, THERMAL, 0);
    set(0, DcgmField.SM_CLOCK, 30, 0);
    fleet.run(10);

    assertThat(thermal.evaluate(fleet.context()))
        .singleElement()
        .satisfies(c -> assertThat(c.performanceFactor()).isEqualTo(0.05));
  }

  @Test
  void a_thermal_throttle_injected_at_runtime_is_seen_within_fifteen_seconds() {
    long onset = 60;
    set(3, DcgmField.CLOCKS_EVENT_REASONS, THERMAL, onset);
    set(3, DcgmField.SM_CLOCK, 1400, onset);
    fleet.run((int) onset);
    assertThat(thermal.evaluate(fleet.context())).isEmpty();

    long detectedAfter = -1;
    for (int s = 1; s <= 20 && detectedAfter < 0; s++) {
      fleet.run(1);
      if (!thermal.evaluate(fleet.context()).isEmpty()) {
        detectedAfter = fleet.secondsSinceStart() - onset;
      }
    }
    assertThat(detectedAfter).isBetween(1L, 15L);
  }

  @Test
  void invalid_values_name_the_property() {
    assertThat(
            ThermalThrottleOptions.from(
                TypedConfig.of(ThermalThrottleDetectorConfig.class, Map.of())))
        .isEqualTo(ThermalThrottleOptions.defaults());
    assertThatThrownBy(
            () ->
                new ThermalThrottleDetector(
                    TypedConfig.of(
                        ThermalThrottleDetectorConfig.class, Map.of("sustainedFraction", 1.5))))
        .hasMessageContaining("sustainedFraction");
    assertThatThrownBy(
            () ->
                new ThermalThrottleDetector(
                    TypedConfig.of(
                        ThermalThrottleDetectorConfig.class,
                        Map.of("hotTemperatureCelsius", 500.0))))
        .hasMessageContaining("hotTemperatureCelsius");
    assertThatThrownBy(
            () ->
                new PowerThrottleDetector(
                    TypedConfig.of(
                        PowerThrottleDetectorConfig.class, Map.of("busyUtilPercent", -1.0))))
        .hasMessageContaining("busyUtilPercent");
    assertThatThrownBy(
            () ->
                new PowerThrottleDetector(
                    TypedConfig.of(
                        PowerThrottleDetectorConfig.class, Map.of("referenceWindowSeconds", 5))))
        .hasMessageContaining("referenceWindowSeconds");
    assertThat(
            new PowerThrottleDetector(TypedConfig.of(PowerThrottleDetectorConfig.class, Map.of()))
                .name())
        .isEqualTo("power-throttle");
  }
}
