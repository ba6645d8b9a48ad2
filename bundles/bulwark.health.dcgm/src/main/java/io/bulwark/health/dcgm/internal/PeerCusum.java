package io.bulwark.health.dcgm.internal;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A CUSUM change-point test on robust peer z-scores, for one metric over a group of GPUs doing the
 * same work. Every second, the busy GPUs that reported are compared with their median: z = (value /
 * median - 1) / deviation, where the deviation is the group's relative MAD (× 1.4826) but never
 * below the configured floor, and z is clipped to the cap so one wild sample weighs little. Each
 * GPU's lower CUSUM adds the shortfall beyond the allowance, S = max(0, S - z - k), capped at twice
 * the decision threshold so it clears soon after the GPU recovers. S above the threshold means a
 * sustained shift below the peers; the last second S was zero estimates when it began. A slowdown
 * shared by the whole group moves the median, not the z-scores. Used by the straggler detector.
 */
final class PeerCusum {
  private PeerCusum() {}

  /** One GPU's samples of the metric, keyed by the second they were taken in, busy seconds only. */
  record Track(Map<Long, Double> bySecond) {}

  /**
   * The verdict on one GPU.
   *
   * @param statistic the CUSUM at the newest second
   * @param changeSecond the last second the CUSUM was zero, or -1 if never judged
   * @param ratioSinceChange the median of value / peer median since the change, NaN if none
   * @param lastZ the newest z-score, NaN if never judged
   * @param judged how many seconds the GPU was compared in
   */
  record Result(
      double statistic, long changeSecond, double ratioSinceChange, double lastZ, int judged) {}

  static List<Result> run(List<Track> tracks, StragglerOptions o) {
    TreeMap<Long, double[]> seconds = new TreeMap<>();
    for (int g = 0; g < tracks.size(); g++) {
      for (Map.Entry<Long, Double> e : tracks.get(g).bySecond().entrySet()) {
        double[] row = seconds.computeIfAbsent(e.getKey(), k -> nanRow(tracks.size()));
        row[g] = e.getValue();
      }
    }
    int n = tracks.size();
    double[] s = new double[n];
    long[] change = new long[n];
    Arrays.fill(change, -1);
    double[] lastZ = new double[n];
    Arrays.fill(lastZ, Double.NaN);
    int[] judged = new int[n];
    List<List<Double>> ratios = new ArrayList<>();
    for (int g = 0; g < n; g++) {
      ratios.add(new ArrayList<>());
    }
    double cap = 2 * o.decisionThreshold();
    for (Map.Entry<Long, double[]> e : seconds.entrySet()) {
      double[] row = e.getValue();
      double[] present = Arrays.stream(row).filter(Double::isFinite).toArray();
      if (present.length < o.minPeers() + 1) {
        continue;
      }
      double median = RobustStatistics.median(present);
      if (!(median > 0)) {
        continue;
      }
      double deviation =
          Math.max(o.deviationFloor(), RobustStatistics.robustDeviation(present, median) / median);
      for (int g = 0; g < n; g++) {
        if (!Double.isFinite(row[g])) {
          continue;
        }
        double ratio = row[g] / median;
        double z = Math.max(-o.zCap(), Math.min(o.zCap(), (ratio - 1) / deviation));
        s[g] = Math.min(cap, Math.max(0, s[g] - z - o.allowance()));
        lastZ[g] = z;
        judged[g]++;
        if (s[g] == 0) {
          change[g] = e.getKey();
          ratios.get(g).clear();
        } else {
          ratios.get(g).add(ratio);
        }
      }
    }
    List<Result> results = new ArrayList<>();
    for (int g = 0; g < n; g++) {
      double[] r = ratios.get(g).stream().mapToDouble(Double::doubleValue).toArray();
      results.add(new Result(s[g], change[g], RobustStatistics.median(r), lastZ[g], judged[g]));
    }
    return results;
  }

  private static double[] nanRow(int n) {
    double[] row = new double[n];
    Arrays.fill(row, Double.NaN);
    return row;
  }
}
