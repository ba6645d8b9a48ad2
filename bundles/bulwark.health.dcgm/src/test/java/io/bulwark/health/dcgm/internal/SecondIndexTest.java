package io.bulwark.health.dcgm.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.bulwark.api.telemetry.SampleWindow;
import java.util.List;
import org.junit.jupiter.api.Test;

class SecondIndexTest {
  private static SampleWindow window(long... millis) {
    return SampleWindow.wrap(millis, new double[millis.length], millis.length);
  }

  @Test
  void aShortSpanGetsAColumnForEverySecondInOrder() {
    SecondIndex index =
        SecondIndex.of(
            List.of(
                new SampleWindow[] {window(10_000, 11_500, 14_999)},
                new SampleWindow[] {window(9_400), window()}),
            100);

    assertThat(index.size()).isEqualTo(6);
    assertThat(index.indexOf(9)).isZero();
    assertThat(index.indexOf(14)).isEqualTo(5);
    assertThat(index.indexOf(8)).isEqualTo(-1);
    assertThat(index.indexOf(15)).isEqualTo(-1);
    assertThat(index.secondAt(3)).isEqualTo(12);
  }

  @Test
  void aSpanBeyondTheLimitGetsAColumnForEachSecondThatHoldsASample() {
    long ahead = 3_600_000L;
    SecondIndex index =
        SecondIndex.of(
            List.<SampleWindow[]>of(
                new SampleWindow[] {window(1_000, 2_000, ahead), window(2_500, ahead + 400)}),
            100);

    assertThat(index.size()).isEqualTo(3);
    assertThat(index.secondAt(0)).isEqualTo(1);
    assertThat(index.secondAt(1)).isEqualTo(2);
    assertThat(index.secondAt(2)).isEqualTo(3_600);
    assertThat(index.indexOf(3_600)).isEqualTo(2);
    assertThat(index.indexOf(3)).isEqualTo(-1);
  }

  @Test
  void noSamplesNoColumns() {
    assertThat(SecondIndex.of(List.<SampleWindow[]>of(new SampleWindow[] {window()}), 10).size())
        .isZero();
  }
}
