package io.bulwark.health.dcgm.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The detectors' own sort and median agree with the library's, NaN and duplicates included. */
class RobustStatisticsTest {

  @Test
  void sortsAsTheLibraryDoesAtEverySize() {
    Random random = new Random(7);
    for (int round = 0; round < 2_000; round++) {
      int count = random.nextInt(48);
      double[] values = new double[count + 3];
      for (int i = 0; i < values.length; i++) {
        int kind = random.nextInt(10);
        values[i] = kind == 0 ? Double.NaN : kind == 1 ? 1500.0 : random.nextGaussian() * 100;
      }
      double[] expected = values.clone();
      Arrays.sort(expected, 0, count);
      RobustStatistics.sort(values, count);
      assertThat(values).as("round %d, %d values", round, count).containsExactly(expected);
    }
  }

  @Test
  void medianOfOddAndEvenCounts() {
    assertThat(RobustStatistics.median(new double[] {3, 1, 2})).isEqualTo(2);
    assertThat(RobustStatistics.median(new double[] {4, 1, 3, 2})).isEqualTo(2.5);
    assertThat(RobustStatistics.median(new double[0])).isNaN();
    double[] eight = {1410, 1395, 1402, 1388, 1410, 1260, 1407, 1399};
    assertThat(RobustStatistics.medianInPlace(eight.clone(), 8)).isEqualTo(1400.5);
  }
}
