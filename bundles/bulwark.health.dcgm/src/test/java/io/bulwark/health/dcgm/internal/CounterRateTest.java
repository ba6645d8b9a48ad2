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
}
