package io.bulwark.telemetry.internal;

/**
 * What one scrape target may add to telemetry, so that an exporter that invents nodes or series
 * (ever-new {@code Hostname} values or metric names) is stopped at its own limits and the others
 * keep being scraped: the series it has created since start, the series one of its pages may
 * create, and the nodes it has filed samples under since start. Samples beyond a limit are dropped
 * and the target's status says which limit, with what to do.
 *
 * @param maxSeriesPerTarget series the target may create since start
 * @param maxNewSeriesPerScrape series one page may create
 * @param maxNodesPerTarget nodes the target may file samples under since start
 */
record TargetLimits(int maxSeriesPerTarget, int maxNewSeriesPerScrape, int maxNodesPerTarget) {
  /** The shipped limits: far above a dcgm-exporter's page (one node, about a thousand series). */
  public static final TargetLimits STANDARD = new TargetLimits(10_000, 4_096, 64);

  /**
   * @throws IllegalArgumentException naming the property if a limit is below 1
   */
  public TargetLimits {
    positive("maxSeriesPerTarget", maxSeriesPerTarget);
    positive("maxNewSeriesPerScrape", maxNewSeriesPerScrape);
    positive("maxNodesPerTarget", maxNodesPerTarget);
  }

  /**
   * Converts the configuration.
   *
   * @throws IllegalArgumentException naming the property if a limit is below 1
   */
  public static TargetLimits from(TelemetryConfig config) {
    return new TargetLimits(
        config.maxSeriesPerTarget(), config.maxNewSeriesPerScrape(), config.maxNodesPerTarget());
  }

  private static void positive(String property, int value) {
    if (value < 1) {
      throw new IllegalArgumentException(property + " must be at least 1, got " + value);
    }
  }
}
