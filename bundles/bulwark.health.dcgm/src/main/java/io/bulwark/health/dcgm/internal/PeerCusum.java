package io.bulwark.health.dcgm.internal;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A CUSUM change-point test on robust peer z-scores, for one metric over a group of GPUs doing the
 * same work. Every second, the busy GPUs that reported are compared with their median: z = (value /
 * median - 1) / deviation, where the deviation is the group's relative MAD (× 1.4826) but never
 * below the configured floor, and z is clipped to the cap so one wild sample weighs little. Each
 * GPU's lower CUSUM adds the shortfall beyond the allowance, S = max(0, S - z - k), capped at twice
 * the decision threshold so it clears soon after the GPU recovers. S above the threshold means a
 * sustained shift below the peers; the last second S was zero estimates when it began. A shortfall
 * that goes on weighs the seconds since the group's previous comparison (at most {@link
 * #MAX_STEP_SECONDS}), its first sample one second: n short samples a second apart weigh n seconds
 * as before, and samples 2.5 s or 4 s apart weigh the time between the first and the last of them
 * plus one second, so the test counts time, not samples, without crediting a shortfall with the
 * time before it was seen. A slowdown shared by the whole group moves the median, not the z-scores.
 * Used by the straggler detector; works on primitive arrays, one row per GPU and one column per
 * second, and allocates a few arrays per call.
 */
final class PeerCusum {
  /** The most seconds one comparison stands for (a gap in the group's reports counts no more). */
  static final int MAX_STEP_SECONDS = 5;

  /** The fewest samples short of the peers that make a lag, whatever seconds they stand for. */
  static final int MIN_LAGGING_SAMPLES = 4;

  private PeerCusum() {}

  /**
   * The verdict on one GPU.
   *
   * @param statistic the CUSUM at the newest second
   * @param changeSecond the last second the CUSUM was zero, or -1 if never judged
   * @param ratioSinceChange the median of value / peer median since the change, NaN if none
   * @param lastZ the newest z-score, NaN if never judged
   * @param judged how many seconds the GPU was compared in
   * @param laggingSeconds how many seconds since the change the GPU fell short of its peers by more
   *     than the allowance (the seconds that made the CUSUM grow; those of its decay do not count)
   * @param laggingSamples how many of its samples since the change fell short so
   */
  record Result(
      double statistic,
      long changeSecond,
      double ratioSinceChange,
      double lastZ,
      int judged,
      int laggingSeconds,
      int laggingSamples) {

    /**
     * Returns true if the GPU lags: the CUSUM is above the decision threshold and the GPU fell
     * short in at least {@code minLagSeconds} seconds since the change, seen in at least {@link
     * #MIN_LAGGING_SAMPLES} samples (a short stall, however deep, is no sustained shift; nor is one
     * sample of a sparse scrape, however many seconds it stands for).
     */
    boolean lags(StragglerOptions o) {
      return statistic > o.decisionThreshold()
          && laggingSeconds >= o.minLagSeconds()
          && laggingSamples >= MIN_LAGGING_SAMPLES;
    }
  }

  /**
   * Runs the test. {@code tracks[g][t]} is GPU {@code g}'s value in the second of column {@code t}
   * of {@code seconds}, NaN where it was idle or did not report; every row has a column per second.
   */
  static List<Result> run(double[][] tracks, SecondIndex seconds, StragglerOptions o) {
    return run(tracks, seconds, o, null);
  }

  /**
   * Runs the test, taking each second's peer median and spread from {@code remembered} where its
   * values are the same as when they were remembered (null, or too small for the window: work every
   * second out).
   */
  static List<Result> run(
      double[][] tracks, SecondIndex seconds, StragglerOptions o, PeerColumns remembered) {
    int n = tracks.length;
    int columns = seconds.size();
    PeerColumns cache = remembered != null && remembered.fits(columns) ? remembered : null;
    double[] s = new double[n];
    long[] change = new long[n];
    Arrays.fill(change, -1);
    double[] lastZ = new double[n];
    Arrays.fill(lastZ, Double.NaN);
    double[] judged = new double[n];
    double[][] ratios = new double[n][columns];
    int[] ratioCount = new int[n];
    double[] shortSeconds = new double[n];
    int[] shortSamples = new int[n];
    boolean[] wasShort = new boolean[n];
    long previousSecond = Long.MIN_VALUE;
    double[] present = new double[n];
    int[] rows = new int[n];
    double[] scratch = new double[n];
    double cap = 2 * o.decisionThreshold();
    for (int t = 0; t < columns; t++) {
      int count = 0;
      for (int g = 0; g < n; g++) {
        double v = tracks[g][t];
        if (Double.isFinite(v)) {
          rows[count] = g;
          present[count++] = v;
        }
      }
      if (count < o.minPeers() + 1) {
        continue;
      }
      double median;
      double spread;
      long second = seconds.secondAt(t);
      long fingerprint = cache == null ? 0 : PeerColumns.fingerprint(present, rows, count);
      int known = cache == null ? -1 : cache.find(second, fingerprint);
      if (known >= 0) {
        median = cache.median(known);
        spread = cache.spread(known);
      } else {
        median = RobustStatistics.medianInPlace(present, count);
        for (int i = 0; i < count; i++) {
          scratch[i] = Math.abs(present[i] - median);
        }
        spread = RobustStatistics.medianInPlace(scratch, count) * RobustStatistics.MAD_TO_SIGMA;
        if (cache != null) {
          cache.remember(second, fingerprint, median, spread);
        }
      }
      if (!(median > 0)) {
        continue;
      }
      double deviation = Math.max(o.deviationFloor(), spread / median);
      double weight =
          previousSecond == Long.MIN_VALUE
              ? 1
              : Math.max(1, Math.min(MAX_STEP_SECONDS, second - previousSecond));
      previousSecond = second;
      for (int g = 0; g < n; g++) {
        double v = tracks[g][t];
        if (!Double.isFinite(v)) {
          continue;
        }
        double ratio = v / median;
        double z = Math.max(-o.zCap(), Math.min(o.zCap(), (ratio - 1) / deviation));
        boolean isShort = z < -o.allowance();
        double step = isShort && !wasShort[g] ? 1 : weight;
        wasShort[g] = isShort;
        s[g] = Math.min(cap, Math.max(0, s[g] - step * (z + o.allowance())));
        lastZ[g] = z;
        judged[g] += weight;
        if (s[g] == 0) {
          change[g] = seconds.secondAt(t);
          ratioCount[g] = 0;
          shortSeconds[g] = 0;
          shortSamples[g] = 0;
        } else {
          ratios[g][ratioCount[g]++] = ratio;
          if (isShort) {
            shortSeconds[g] += step;
            shortSamples[g]++;
          }
        }
      }
    }
    List<Result> results = new ArrayList<>(n);
    for (int g = 0; g < n; g++) {
      double ratio =
          ratioCount[g] == 0
              ? Double.NaN
              : RobustStatistics.medianInPlace(ratios[g], ratioCount[g]);
      results.add(
          new Result(
              s[g],
              change[g],
              ratio,
              lastZ[g],
              (int) Math.round(judged[g]),
              (int) Math.round(shortSeconds[g]),
              shortSamples[g]));
    }
    return results;
  }
}
