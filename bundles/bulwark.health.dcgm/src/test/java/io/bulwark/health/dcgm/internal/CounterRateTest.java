package io.bulwark.health.dcgm.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.bulwark.api.telemetry.SampleWindow;
import org.junit.jupiter.api.Test;

class CounterRateTest {

  private static SampleWindow window(double... values) {
    long[] t = new long[values.length];
    for (int i = 0; i < t.length; i++) {
      t[i] = 1000L * i;
    }
    return SampleWindow.wrap(t, values.clone(), values.length);
  }

  @Test
  void a_rising_counter_gives_its_rise_over_the_elapsed_time() {
    CounterRate r = CounterRate.of(window(10, 12, 15, 20, 30));
    assertThat(r.increase()).isEqualTo(20);
    assertThat(r.elapsedSeconds()).isEqualTo(4);
    assertThat(r.perMinute()).isEqualTo(300);
    assertThat(r.resets()).isZero();
  }

  @Test
  void a_reset_counts_the_new_value_and_never_a_negative_rise() {
    CounterRate r = CounterRate.of(window(100, 110, 2, 5));
    assertThat(r.increase()).isEqualTo(10 + 2 + 3);
    assertThat(r.resets()).isEqualTo(1);
  }

  @Test
  void a_flapping_sample_that_comes_back_is_a_glitch_not_a_reset() {
    CounterRate r = CounterRate.of(window(100, 0, 100, 0, 101, Double.NaN, -3, 101));
    assertThat(r.increase()).isEqualTo(1);
    assertThat(r.resets()).isZero();
    assertThat(r.glitches()).isEqualTo(2);
  }

  @Test
  void a_flat_or_empty_counter_has_no_rate() {
    assertThat(CounterRate.of(window(7, 7, 7)).perSecond()).isZero();
    assertThat(CounterRate.of(window()).spans(1)).isFalse();
    assertThat(CounterRate.of(window(5)).spans(0)).isFalse();
  }

  @Test
  void a_flat_window_is_measured_as_sample_by_sample_measuring_does() {
    java.util.Random random = new java.util.Random(7);
    for (int round = 0; round < 500; round++) {
      int n = 1 + random.nextInt(40);
      long[] t = new long[n];
      double[] v = new double[n];
      long clock = 1_700_000_000_000L;
      double level = random.nextInt(3) == 0 ? 0 : random.nextInt(1_000_000);
      for (int i = 0; i < n; i++) {
        clock += 500 + random.nextInt(1500);
        t[i] = clock;
        v[i] = level;
      }
      SampleWindow window = SampleWindow.wrap(t, v, n);
      long countFrom = t[0] - 5_000 + (long) random.nextInt((int) (t[n - 1] - t[0] + 10_000));

      assertThat(CounterRate.of(window, countFrom))
          .as("round %d", round)
          .isEqualTo(CounterRate.measured(window, countFrom));
    }
  }
}
