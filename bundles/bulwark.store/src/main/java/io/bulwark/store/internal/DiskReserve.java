package io.bulwark.store.internal;

import io.bulwark.api.store.StoreUnavailableException;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The store's free-space guard: refuses routine writes once the disk of the data folder has less
 * free space than the reserve (the configured size, or a tenth of a small disk), so that the disk
 * never fills under the store and the audit log (which writes until the disk is full) keeps room to
 * record. Account and token writes (logins, password changes) are let through down to a smaller
 * floor, so that an administrator can still log in to see why. Reads of free space are a {@code
 * statvfs} call, cached for a second.
 */
final class DiskReserve {
  private static final System.Logger LOG = System.getLogger(DiskReserve.class.getName());
  private static final long CACHE_NANOS = 1_000_000_000L;

  private final Path folder;
  private final long reserveBytes;
  private final AtomicLong refused = new AtomicLong();
  private volatile FileStore store;
  private volatile long free = -1;
  private volatile long total = -1;
  private volatile long readAt;
  private volatile boolean unreadableReported;

  /**
   * @param folder the data folder, which must exist
   * @param reserveBytes free space below which routine writes are refused (0: no guard)
   */
  DiskReserve(Path folder, long reserveBytes) {
    this.folder = folder;
    this.reserveBytes = reserveBytes;
  }

  /**
   * Refuses a write when the disk is below the reserve (or, for a priority write, below an eighth
   * of it).
   *
   * @throws StoreUnavailableException naming the disk, its free space and what to do
   */
  void check(String what, boolean priority) {
    long available = freeBytes(true);
    long limit = priority ? reserveBytes() / 8 : reserveBytes();
    if (limit > 0 && available >= 0 && available < limit) {
      refused.incrementAndGet();
      throw new StoreUnavailableException(
          "the store refused to "
              + what
              + ": the disk of "
              + folder
              + " has "
              + size(available)
              + " free, below the store's reserve of "
              + size(limit)
              + " (kept so that the disk never fills and the audit log can still record)."
              + " Free space on that disk, or lower minFreeMegabytes (PID io.bulwark.store);"
              + " writes resume by themselves",
          null);
    }
  }

  /** Returns true while routine writes are refused. */
  boolean belowReserve() {
    long available = freeBytes(false);
    long limit = reserveBytes();
    return limit > 0 && available >= 0 && available < limit;
  }

  /**
   * Returns the free bytes for this process on the data folder's disk, or -1 if unknown.
   *
   * @param fresh read the disk now rather than the reading of the last second
   */
  long freeBytes(boolean fresh) {
    long now = System.nanoTime();
    if (fresh || free < 0 || now - readAt > CACHE_NANOS) {
      read(now);
    }
    return free;
  }

  /** Returns the size of the data folder's disk in bytes, or -1 if unknown. */
  long totalBytes() {
    freeBytes(false);
    return total;
  }

  /** Returns the reserve in force: the configured one, or a tenth of the disk if that is less. */
  long reserveBytes() {
    long size = total;
    return size > 0 ? Math.min(reserveBytes, size / 10) : reserveBytes;
  }

  long refusals() {
    return refused.get();
  }

  private void read(long now) {
    try {
      FileStore fs = store;
      if (fs == null) {
        fs = Files.getFileStore(folder);
        store = fs;
      }
      free = fs.getUsableSpace();
      total = fs.getTotalSpace();
      readAt = now;
    } catch (IOException e) {
      if (!unreadableReported) {
        unreadableReported = true;
        LOG.log(
            Level.WARNING,
            "Cannot read the free space of {0} ({1}); the store's free-space reserve is not"
                + " enforced until it can",
            folder,
            e.toString());
      }
      free = -1;
    }
  }

  /** Returns {@code bytes} for an operator: "512 bytes", "64.0 MiB". */
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
