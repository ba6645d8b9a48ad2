package io.bulwark.telemetry.internal;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;

/**
 * The checked, immutable form of {@link TelemetryConfig}. Building it refuses values telemetry
 * cannot work with, naming the property and the value, so that a wrong configuration fails
 * activation instead of scraping badly.
 */
record TelemetryOptions(
    Path fileSd,
    long scrapeIntervalMillis,
    long scrapeTimeoutMillis,
    int retentionSamples,
    long maxStretchedIntervalMillis) {
  /** The configuration PID of telemetry. */
  public static final String PID = "io.bulwark.telemetry";

  /** The smallest retention accepted. */
  public static final int MIN_RETENTION = 10;

  /**
   * How many times the scrape interval load shedding may stretch it to when no longest interval is
   * given.
   */
  public static final int DEFAULT_MAX_STRETCH = 4;

  /** Options with load shedding up to {@link #DEFAULT_MAX_STRETCH} times the interval. */
  TelemetryOptions(
      Path fileSd, long scrapeIntervalMillis, long scrapeTimeoutMillis, int retentionSamples) {
    this(
        fileSd,
        scrapeIntervalMillis,
        scrapeTimeoutMillis,
        retentionSamples,
        DEFAULT_MAX_STRETCH * scrapeIntervalMillis);
  }

  /**
   * @throws IllegalArgumentException if a value is out of range; the message names the property and
   *     the value
   */
  public TelemetryOptions {
    if (fileSd == null) {
      throw new IllegalArgumentException(
          "fileSd must be the path of the file_sd targets file, got null");
    }
    if (scrapeIntervalMillis <= 0) {
      throw new IllegalArgumentException(
          "scrapeIntervalMillis must be a positive number of milliseconds, got "
              + scrapeIntervalMillis);
    }
    if (scrapeTimeoutMillis <= 0 || scrapeTimeoutMillis >= scrapeIntervalMillis) {
      throw new IllegalArgumentException(
          "scrapeTimeoutMillis must be positive and shorter than"
              + " scrapeIntervalMillis ("
              + scrapeIntervalMillis
              + "), got "
              + scrapeTimeoutMillis);
    }
    if (retentionSamples < MIN_RETENTION) {
      throw new IllegalArgumentException(
          "retentionSamples must be at least " + MIN_RETENTION + ", got " + retentionSamples);
    }
    if (maxStretchedIntervalMillis < scrapeIntervalMillis
        || maxStretchedIntervalMillis > 60 * scrapeIntervalMillis) {
      throw new IllegalArgumentException(
          "maxStretchedIntervalMillis must be between scrapeIntervalMillis ("
              + scrapeIntervalMillis
              + ", no load shedding) and 60 times it, got "
              + maxStretchedIntervalMillis);
    }
  }

  /**
   * Converts the configuration.
   *
   * @throws IllegalArgumentException if a value is out of range; the message names the property and
   *     the value
   */
  public static TelemetryOptions from(TelemetryConfig config) {
    String file = config.fileSd();
    if (file == null || file.isBlank()) {
      throw new IllegalArgumentException(
          "fileSd must be the path of the file_sd targets file, got '" + file + "'");
    }
    Path path;
    try {
      path = Path.of(file.strip());
    } catch (InvalidPathException e) {
      throw new IllegalArgumentException(
          "fileSd is not a valid path: '" + file + "' (" + e.getReason() + ")", e);
    }
    return new TelemetryOptions(
        path,
        config.scrapeIntervalMillis(),
        config.scrapeTimeoutMillis(),
        config.retentionSamples(),
        config.maxStretchedIntervalMillis() == 0
            ? DEFAULT_MAX_STRETCH * config.scrapeIntervalMillis()
            : config.maxStretchedIntervalMillis());
  }
}
