package io.bulwark.health.dcgm.internal;

/**
 * The validated, immutable form of {@link StragglerDetectorConfig}. Used by the straggler detector.
 *
 * @param windowSeconds how far back the CUSUM runs
 * @param deviationFloor the smallest relative deviation a z-score divides by
 * @param allowance the CUSUM allowance k, in deviations: shortfalls below it do not accumulate
 * @param decisionThreshold the CUSUM threshold h above which a GPU lags
 * @param zCap the largest z-score magnitude one sample contributes
 * @param minLagSeconds the fewest seconds a GPU's CUSUM must have stayed above zero to lag
 * @param minPeers the fewest other busy GPUs of the group needed to judge a second
 * @param busyUtilPercent the utilisation from which a GPU counts as busy
 * @param sustainedFraction the share of throttled samples from which a GPU is left to the throttle
 *     detectors
 * @param compareSmActive whether SM activity is compared
 * @param comparePower whether power draw is compared
 * @param compareJobNodes whether the nodes of one job are compared with each other when a job map
 *     is bound
 * @param jobMinNodes the fewest nodes of one job, in the job for the whole window, needed to
 *     compare them
 * @param jobMapMaxAgeSeconds how old the job map may be for the job comparison to run
 */
record StragglerOptions(
    int windowSeconds,
    double deviationFloor,
    double allowance,
    double decisionThreshold,
    double zCap,
    int minLagSeconds,
    int minPeers,
    double busyUtilPercent,
    double sustainedFraction,
    boolean compareSmActive,
    boolean comparePower,
    boolean compareJobNodes,
    int jobMinNodes,
    int jobMapMaxAgeSeconds) {

  /**
   * @throws IllegalArgumentException naming the property whose value is out of range
   */
  StragglerOptions {
    new WindowOptions(windowSeconds);
    if (!(deviationFloor > 0 && deviationFloor < 1)) {
      throw new IllegalArgumentException("deviationFloor must be in (0, 1), was " + deviationFloor);
    }
    if (!(allowance >= 0 && allowance < 100)) {
      throw new IllegalArgumentException("allowance must be between 0 and 100, was " + allowance);
    }
    if (!(decisionThreshold > 0 && decisionThreshold < 1e6)) {
      throw new IllegalArgumentException(
          "decisionThreshold must be above 0, was " + decisionThreshold);
    }
    if (!(zCap > allowance && zCap < 1000)) {
      throw new IllegalArgumentException(
          "zCap must be above the allowance (" + allowance + ") and below 1000, was " + zCap);
    }
    if (minLagSeconds < 1 || minLagSeconds > windowSeconds) {
      throw new IllegalArgumentException(
          "minLagSeconds must be from 1 to the window ("
              + windowSeconds
              + "), was "
              + minLagSeconds);
    }
    if (minPeers < 2) {
      throw new IllegalArgumentException("minPeers must be at least 2, was " + minPeers);
    }
    if (!(busyUtilPercent >= 0 && busyUtilPercent <= 100)) {
      throw new IllegalArgumentException(
          "busyUtilPercent must be between 0 and 100, was " + busyUtilPercent);
    }
    if (!(sustainedFraction > 0 && sustainedFraction <= 1)) {
      throw new IllegalArgumentException(
          "sustainedFraction must be in (0, 1], was " + sustainedFraction);
    }
    if (jobMinNodes < 3 || jobMinNodes > 100_000) {
      throw new IllegalArgumentException(
          "jobMinNodes must be between 3 and 100000, was " + jobMinNodes);
    }
    if (jobMapMaxAgeSeconds < 1 || jobMapMaxAgeSeconds > 3600) {
      throw new IllegalArgumentException(
          "jobMapMaxAgeSeconds must be between 1 and 3600, was " + jobMapMaxAgeSeconds);
    }
  }

  /** Converts the configuration once. */
  static StragglerOptions from(StragglerDetectorConfig c) {
    return new StragglerOptions(
        c.windowSeconds(),
        c.deviationFloor(),
        c.allowance(),
        c.decisionThreshold(),
        c.zCap(),
        c.minLagSeconds(),
        c.minPeers(),
        c.busyUtilPercent(),
        c.sustainedFraction(),
        c.compareSmActive(),
        c.comparePower(),
        c.compareJobNodes(),
        c.jobMinNodes(),
        c.jobMapMaxAgeSeconds());
  }

  /**
   * Returns these options for comparing the nodes of a job: a second is judged when at least {@link
   * #jobMinNodes} of them report.
   */
  StragglerOptions forJobNodes() {
    return new StragglerOptions(
        windowSeconds,
        deviationFloor,
        allowance,
        decisionThreshold,
        zCap,
        minLagSeconds,
        jobMinNodes - 1,
        busyUtilPercent,
        sustainedFraction,
        compareSmActive,
        comparePower,
        compareJobNodes,
        jobMinNodes,
        jobMapMaxAgeSeconds);
  }

  /** Returns the default options. */
  static StragglerOptions defaults() {
    return new StragglerOptions(120, 0.03, 2.0, 12, 4, 10, 3, 50, 0.5, true, true, true, 3, 60);
  }
}
