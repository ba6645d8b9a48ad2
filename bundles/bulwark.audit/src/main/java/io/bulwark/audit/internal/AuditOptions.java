package io.bulwark.audit.internal;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Locale;

/** The audit log's settings, checked once: its folder and its storage quota in bytes. */
record AuditOptions(Path folder, long maxBytes) {

  static final String FILE_NAME = "audit.jsonl";

  AuditOptions {
    if (maxBytes <= 0) {
      throw new IllegalArgumentException(
          "audit setting maxBytes must be positive, not " + maxBytes + ": give a quota in bytes");
    }
    folder = folder.toAbsolutePath().normalize();
  }

  static AuditOptions from(AuditConfig config) {
    String dir = config.folder();
    if (dir == null || dir.isBlank()) {
      throw new IllegalArgumentException("audit setting folder is empty: give a folder");
    }
    try {
      return new AuditOptions(Path.of(dir.trim()), config.maxBytes());
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
