package io.bulwark.telemetry.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.bulwark.api.telemetry.MinuteRollup;
import java.nio.ByteBuffer;
import java.util.List;
import org.junit.jupiter.api.Test;

class MinuteRollupsTest {
  private static final long T0 = 1_767_225_600_000L;
  private static final long MINUTE = 60_000;

  private static MinuteRollup point(long minute, double min, double avg, double max, int count) {
    return new MinuteRollup(T0 + minute * MINUTE, min, avg, max, count);
  }

  @Test
  void rollsUpEachWholeMinuteOnceTheNextOneStarts() {
    SeriesRing ring = new SeriesRing(10, 60);
    ring.append(T0, 4);
    ring.append(T0 + 20_000, 10);
    ring.append(T0 + 59_999, 1);
    assertThat(ring.rollup(0)).as("the first minute is still being filled").isEmpty();

    ring.append(T0 + MINUTE, 7);
    ring.append(T0 + MINUTE + 30_000, 9);
    ring.append(T0 + 2 * MINUTE, 100);

    assertThat(ring.rollup(0)).containsExactly(point(0, 1, 5, 10, 3), point(1, 7, 8, 9, 2));
  }

  @Test
  void leavesGapsEmptyAndDropsMinutesThatLeftTheWindow() {
    SeriesRing ring = new SeriesRing(10, 5);
    ring.append(T0, 1);
    ring.append(T0 + 3 * MINUTE + 5, 2);
    ring.append(T0 + 4 * MINUTE, 3);

    assertThat(ring.rollup(0)).containsExactly(point(0, 1, 1, 1, 1), point(3, 2, 2, 2, 1));

    ring.append(T0 + 6 * MINUTE, 4);
    assertThat(ring.rollup(0))
        .as("the window is minutes 2 to 6")
        .containsExactly(point(3, 2, 2, 2, 1), point(4, 3, 3, 3, 1));

    ring.append(T0 + 100 * MINUTE, 5);
    assertThat(ring.rollup(0)).isEmpty();
    ring.append(T0 + 101 * MINUTE, 6);
    assertThat(ring.rollup(0)).containsExactly(point(100, 5, 5, 5, 1));
  }

  @Test
  void answersFromTheFirstMinuteStartingAtOrAfterTheGivenTime() {
    SeriesRing ring = new SeriesRing(10, 60);
    for (int m = 0; m <= 4; m++) {
      ring.append(T0 + m * MINUTE, m);
    }

    assertThat(ring.rollup(T0 + 2 * MINUTE))
        .extracting(MinuteRollup::min)
        .containsExactly(2.0, 3.0);
    assertThat(ring.rollup(T0 + 2 * MINUTE + 1)).extracting(MinuteRollup::min).containsExactly(3.0);
    assertThat(ring.rollup(Long.MIN_VALUE)).hasSize(4);
    assertThat(ring.rollup(Long.MAX_VALUE)).isEmpty();
  }

  @Test
  void refusedSamplesAndNaNsStayOutOfTheRollups() {
    SeriesRing ring = new SeriesRing(10, 60);
    ring.append(T0 + 10_000, 5);

    assertThat(ring.append(T0 + 10_000, 500)).isFalse();
    assertThat(ring.append(T0 + 5_000, -500)).isFalse();
    assertThat(ring.append(T0 + 20_000, Double.NaN)).isTrue();
    ring.append(T0 + 30_000, 7);
    ring.append(T0 + MINUTE, 0);

    assertThat(ring.rollup(0)).containsExactly(point(0, 5, 6, 7, 2));
  }

  @Test
  void aMinuteClosedByTheClockCountsLaterSamplesAsLate() {
    SeriesRing ring = new SeriesRing(10, 60);
    ring.append(T0 + 1_000, 2);
    ByteBuffer record = ByteBuffer.allocate(MinuteRollups.RECORD_BYTES);
    ring.writeMinute(MinuteRollups.minuteOf(T0), MinuteRollups.minuteOf(T0) + 1, record);
    ring.append(T0 + 59_000, 4);
    ring.append(T0 + MINUTE + 1, 6);
    ring.append(T0 + 2 * MINUTE, 8);

    assertThat(record.flip().getFloat()).isEqualTo(2f);
    assertThat(ring.rollup(0)).containsExactly(point(0, 2, 2, 2, 1), point(1, 6, 6, 6, 1));
    assertThat(ring.lateSamples()).isEqualTo(1);
    assertThat(ring.window(0).size()).as("the raw samples keep the late one").isEqualTo(4);
  }

  @Test
  void restoredMinutesFillTheWindowButNeverTheMinuteBeingFilled() {
    SeriesRing ring = new SeriesRing(10, 60);
    long minute = MinuteRollups.minuteOf(T0);
    ring.restoreMinute(minute, 1, 2, 3, 4);
    ring.restoreMinute(minute + 2, 5, 6, 7, 8);
    ring.restoreMinute(minute - 70, 9, 9, 9, 9);
    ring.append(T0 + 3 * MINUTE, 1);
    ring.restoreMinute(minute + 3, 0, 0, 0, 1);

    assertThat(ring.rollup(0)).isEqualTo(List.of(point(0, 1, 2, 3, 4), point(2, 5, 6, 7, 8)));
  }

  @Test
  void aRingWithoutRollupsAnswersNone() {
    SeriesRing ring = new SeriesRing(10);
    ring.append(T0, 1);
    ring.append(T0 + MINUTE, 1);

    assertThat(ring.rollup(0)).isEmpty();
    assertThat(ring.rollups()).isNull();
  }
}
