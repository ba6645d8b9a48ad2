package io.bulwark.api.telemetry;

import java.util.Objects;

/**
 * One sample that a bundle pushes into telemetry ({@link TelemetryIngest}): of GPU {@code gpu} of
 * the batch's node (or of the node itself, {@link SeriesId#NODE_LEVEL}), metric {@code metric}, at
 * {@code timestampMillis}. A metric name follows Prometheus' rules ({@code
 * [a-zA-Z_:][a-zA-Z0-9_:]*}, at most 256 characters); a source names its own metrics (a BMC sensor
 * as, say, {@code BMC_INLET_TEMP_C}) and may file under the dcgm-exporter names that detectors
 * read.
 *
 * @since 1.4
 */
public record Reading(int gpu, String metric, long timestampMillis, double value) {
  /** The longest metric name, as the scrape parser allows. */
  public static final int MAX_METRIC_LENGTH = 256;

  /**
   * @throws IllegalArgumentException if the GPU index is below {@link SeriesId#NODE_LEVEL} or the
   *     metric name is not a Prometheus metric name of at most 256 characters
   */
  public Reading {
    Objects.requireNonNull(metric, "metric");
    if (gpu < SeriesId.NODE_LEVEL) {
      throw new IllegalArgumentException(
          "a reading's GPU index is 0 or more, or NODE_LEVEL (-1), not " + gpu);
    }
    if (!validMetric(metric)) {
      throw new IllegalArgumentException(
          "a reading's metric is a Prometheus metric name ([a-zA-Z_:][a-zA-Z0-9_:]*, at most "
              + MAX_METRIC_LENGTH
              + " characters), not '"
              + (metric.length() > 80 ? metric.substring(0, 80) + "…" : metric)
              + "'");
    }
  }

  /** Returns a reading of the node itself, not of one of its GPUs. */
  public static Reading ofNode(String metric, long timestampMillis, double value) {
    return new Reading(SeriesId.NODE_LEVEL, metric, timestampMillis, value);
  }

  private static boolean validMetric(String name) {
    if (name.isEmpty() || name.length() > MAX_METRIC_LENGTH) {
      return false;
    }
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      boolean letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':';
      if (!letter && (i == 0 || c < '0' || c > '9')) {
        return false;
      }
    }
    return true;
  }
}
