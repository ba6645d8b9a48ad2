package io.bulwark.health.dcgm.internal;

/**
 * What the peers of a GPU show for one metric: the median of their medians, its robust deviation
 * (MAD × 1.4826) and the threshold below which a GPU lags: more than the relative drop AND more
 * than the given number of robust deviations below the median. Used by the straggler detector.
 *
 * @param peers how many GPUs the baseline was taken over
 */
record PeerBaseline(double median, double deviation, int peers, double threshold) {

  /** Takes the baseline over the per-GPU medians of a group of peers. */
  static PeerBaseline of(double[] medians, double relativeDrop, double madMultiplier) {
    double median = RobustStatistics.median(medians);
    double deviation = RobustStatistics.robustDeviation(medians, median);
    double margin = Math.max(relativeDrop * median, madMultiplier * deviation);
    return new PeerBaseline(median, deviation, medians.length, median - margin);
  }

  /** Returns the share of {@code samples} below the threshold. */
  double shareBelow(double[] samples) {
    if (samples.length == 0) {
      return 0;
    }
    int below = 0;
    for (double s : samples) {
      if (s < threshold) {
        below++;
      }
    }
    return (double) below / samples.length;
  }
}
