package io.bulwark.health.dcgm.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.bulwark.api.telemetry.SampleWindow;
import io.bulwark.testing.TypedConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The straggler test gives the very same verdicts whether each second's peer median is worked out
 * afresh or taken from the seconds remembered at the previous evaluation, as its window slides, a
 * GPU slows down, and a sample of a past second arrives late.
 */
class PeerColumnsTest {
  private static final int GPUS = 8;
  private static final int WINDOW = 120;
  private final StragglerOptions options =
      StragglerOptions.from(TypedConfig.defaults(StragglerDetectorConfig.class));

  @Test
  void rememberedSecondsGiveTheSameVerdictsAsFreshOnes() {
    Random random = new Random(11);
    int total = 400;
    double[][] clocks = new double[GPUS][total];
    for (int g = 0; g < GPUS; g++) {
      for (int t = 0; t < total; t++) {
        boolean idle = random.nextInt(40) == 0;
        double slow = g == 3 && t > 200 ? 0.9 : 1.0;
        clocks[g][t] = idle ? Double.NaN : 1410 * slow * (1 + random.nextGaussian() * 0.01);
      }
    }
    PeerColumns remembered = new PeerColumns(WINDOW + 16);
    int lagging = 0;
    for (int end = WINDOW; end < total; end += 2) {
      if (end == 300) {
        // A sample of a second the previous evaluation saw arrives late.
        clocks[5][end - 10] = 1395;
      }
      double[][] window = new double[GPUS][];
      List<SampleWindow[]> windows = new ArrayList<>();
      SampleWindow[] rows = new SampleWindow[GPUS];
      for (int g = 0; g < GPUS; g++) {
        window[g] = java.util.Arrays.copyOfRange(clocks[g], end - WINDOW, end);
        long[] times = new long[WINDOW];
        for (int t = 0; t < WINDOW; t++) {
          times[t] = (1_700_000_000L + end - WINDOW + t) * 1000;
        }
        rows[g] = SampleWindow.wrap(times, window[g], WINDOW);
      }
      windows.add(rows);
      SecondIndex seconds = SecondIndex.of(windows, 4 * WINDOW + 60);

      List<PeerCusum.Result> fresh = PeerCusum.run(window, seconds, options);
      List<PeerCusum.Result> cached = PeerCusum.run(window, seconds, options, remembered);

      assertThat(cached).as("window ending at %d", end).isEqualTo(fresh);
      if (fresh.get(3).lags(options)) {
        lagging++;
      }
    }
    assertThat(lagging).as("the slow GPU is found").isPositive();
  }
}
