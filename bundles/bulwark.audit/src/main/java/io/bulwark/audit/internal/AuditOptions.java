package io.bulwark.audit.internal;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The audit log's settings, checked once: its folder, its storage quota in bytes, and at what share
 * of the quota it warns. The last part of the quota ({@link #reserveBytes()}) is kept for the
 * records an administrator needs to recover (see {@link RecoveryRecords}), so that a full log never
 * locks the administrator out.
 */
record AuditOptions(Path folder, long maxBytes, int warnPercent) {

  static final String FILE_NAME = "audit.jsonl";

  /** The share of the quota at which the log warns, as the STIG asks (75%). */
  static final int DEFAULT_WARN_PERCENT = 75;

  private static final long MIB = 1L << 20;

  AuditOptions {
    if (maxBytes <= 0) {
      throw new IllegalArgumentException(
          "audit setting maxBytes must be positive, not " + maxBytes + ": give a quota in bytes");
    }
    if (warnPercent < 1 || warnPercent > 99) {
      throw new IllegalArgumentException(
          "audit setting warnPercent must be from 1 to 99, not " + warnPercent);
    }
    folder = folder.toAbsolutePath().normalize();
  }

  AuditOptions(Path folder, long maxBytes) {
    this(folder, maxBytes, DEFAULT_WARN_PERCENT);
  }

  /**
   * Returns the part of the quota kept for recovery records: 2% of it, at least 1 MiB and at most
   * 64 MiB, and never more than a tenth.
   */
  long reserveBytes() {
    long reserve = Math.max(MIB, maxBytes / 50);
    return Math.min(reserve, Math.min(64 * MIB, maxBytes / 10));
  }

  /** Returns the size up to which every record is written. */
  long routineLimit() {
    return maxBytes - reserveBytes();
  }

  /** Returns the size from which the log warns. */
  long warnBytes() {
    return maxBytes / 100 * warnPercent;
  }

  static AuditOptions from(AuditConfig config) {
    String dir = config.folder();
    if (dir == null || dir.isBlank()) {
      throw new IllegalArgumentException("audit setting folder is empty: give a folder");
    }
    try {
      return new AuditOptions(Path.of(dir.trim()), config.maxBytes(), config.warnPercent());
    } catch (InvalidPathException e) {
      throw new IllegalArgumentException("audit setting folder is not a path: '" + dir + "'", e);
    }
  }

  Path logFile() {
    return folder.resolve(FILE_NAME);
  }

  /** Returns {@code bytes} for an operator: "512 bytes", "64.0 KiB", "1.0 GiB". */
  static String size(long bytes) {
    if (bytes < 1024) {
      return bytes + " bytes";
    }
    String[] units = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    double value = bytes;
    int unit = -1;
    while (value >= 1024 && unit < units.length - 1) {
      value /= 1024;
      unit++;
    }
    return String.format(Locale.ROOT, "%.1f %s", value, units[unit]);
  }
}
