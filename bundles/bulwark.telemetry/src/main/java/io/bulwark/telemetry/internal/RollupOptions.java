package io.bulwark.telemetry.internal;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;

/**
 * The checked, immutable roll-up part of {@link TelemetryConfig}: how many minutes each series
 * keeps in memory, and where, how often and how long closed minutes are archived. Building it
 * refuses values telemetry cannot work with, naming the property and the value.
 *
 * @param minutes minutes of roll-ups kept in memory per series; 0 when roll-ups are off
 * @param folder where roll-up files go, or null when they are kept in memory only
 * @param retentionDays how many days roll-up files are kept
 * @param flushMinutes how often, in minutes, the closed minutes are written
 */
record RollupOptions(int minutes, Path folder, int retentionDays, int flushMinutes) {
  /** The largest in-memory window accepted, in hours. */
  public static final int MAX_HOURS = 24;

  /**
   * @throws IllegalArgumentException if a value is out of range; the message names the property and
   *     the value
   */
  public RollupOptions {
    if (minutes < 0 || minutes > MAX_HOURS * 60) {
      throw new IllegalArgumentException(
          "rollupHours must be between 0 and " + MAX_HOURS + ", got " + minutes / 60.0);
    }
    if (retentionDays < 1) {
      throw new IllegalArgumentException(
          "rollupRetentionDays must be at least 1, got " + retentionDays);
    }
    if (flushMinutes < 1 || flushMinutes > 60) {
      throw new IllegalArgumentException(
          "rollupFlushMinutes must be between 1 and 60, got " + flushMinutes);
    }
  }

  /** Returns true if closed minutes are written to files. */
  public boolean archived() {
    return folder != null && minutes > 0;
  }

  /**
   * Converts the configuration.
   *
   * @throws IllegalArgumentException if a value is out of range; the message names the property and
   *     the value
   */
  public static RollupOptions from(TelemetryConfig config) {
    int hours = config.rollupHours();
    if (hours < 0 || hours > MAX_HOURS) {
      throw new IllegalArgumentException(
          "rollupHours must be between 0 and " + MAX_HOURS + ", got " + hours);
    }
    String folder = config.rollupFolder();
    Path path = null;
    if (folder != null && !folder.isBlank()) {
      try {
        path = Path.of(folder.strip());
      } catch (InvalidPathException e) {
        throw new IllegalArgumentException(
            "rollupFolder is not a valid path: '" + folder + "' (" + e.getReason() + ")", e);
      }
    }
    return new RollupOptions(
        hours * 60, path, config.rollupRetentionDays(), config.rollupFlushMinutes());
  }
}
