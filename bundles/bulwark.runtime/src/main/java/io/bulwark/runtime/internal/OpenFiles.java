package io.bulwark.runtime.internal;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * How many files the process has open against its limit, as Linux reports them in {@code
 * /proc/self}: sampled on a timer (listing the descriptors costs a few milliseconds when thousands
 * are open), and between samples estimated from the connections accepted and closed since. Where
 * {@code /proc} is not there (not Linux) the budget is unknown and never refuses. Thread-safe.
 */
final class OpenFiles {
  static final Path DESCRIPTORS = Path.of("/proc/self/fd");
  static final Path LIMITS = Path.of("/proc/self/limits");

  private final long limit;
  private volatile int reserve;
  private volatile int sampled;
  private final AtomicInteger sinceSample = new AtomicInteger();

  /**
   * Creates the budget of a process allowed {@code limit} open files (-1 if unknown), of which
   * {@code reserve} are kept for everything but inbound connections (0 picks the default).
   */
  OpenFiles(long limit, int reserve) {
    this.limit = limit;
    reserve(reserve);
    sample();
  }

  /** Returns the budget of this process. */
  static OpenFiles ofThisProcess(int reserve) {
    return new OpenFiles(readLimit(LIMITS), reserve);
  }

  /**
   * Returns the default reserve for a limit: a tenth of it, at least 256 and at most half the
   * limit.
   */
  static int defaultReserve(long limit) {
    if (limit <= 0) {
      return 0;
    }
    long reserve = Math.max(256, limit / 10);
    return (int) Math.min(reserve, limit / 2);
  }

  /** Sets the descriptors kept for the store, the audit log, scrapes and files; 0 for default. */
  void reserve(int descriptors) {
    if (descriptors < 0) {
      throw new IllegalArgumentException(
          "fileDescriptorReserve must be 0 (automatic) or more, not " + descriptors);
    }
    this.reserve = descriptors == 0 ? defaultReserve(limit) : descriptors;
  }

  /** Returns true if one more connection leaves the reserve untouched. */
  boolean roomForConnection() {
    return limit <= 0 || open() + 1 < limit - reserve;
  }

  /** Counts an accepted connection until the next sample sees it. */
  void opened() {
    sinceSample.incrementAndGet();
  }

  /** Counts a closed connection until the next sample. */
  void closed() {
    sinceSample.decrementAndGet();
  }

  /** Reads the open descriptors again. */
  void sample() {
    int counted = count(DESCRIPTORS, limit);
    sinceSample.set(0);
    sampled = counted;
  }

  /** Returns the estimated number of open files. */
  int open() {
    return Math.max(0, sampled + sinceSample.get());
  }

  /** Returns the soft limit on open files, or -1 if unknown. */
  long limit() {
    return limit;
  }

  /** Returns the descriptors kept from inbound connections. */
  int reserve() {
    return reserve;
  }

  /**
   * Returns the entries of {@code folder}, or {@code limit} if it cannot be opened because no
   * descriptor is left, or 0 if there is no such folder.
   */
  static int count(Path folder, long limit) {
    if (!Files.isDirectory(folder)) {
      return 0;
    }
    int n = 0;
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(folder)) {
      for (Path ignored : entries) {
        n++;
      }
      return Math.max(0, n - 1); // the stream's own descriptor
    } catch (IOException e) {
      // "Too many open files" is the usual reason; count the budget as spent.
      return limit > 0 ? (int) Math.min(Integer.MAX_VALUE, limit) : n;
    }
  }

  /** Returns the soft "Max open files" of a {@code /proc/<pid>/limits} file, or -1. */
  static long readLimit(Path limits) {
    try {
      for (String line : Files.readAllLines(limits)) {
        if (line.startsWith("Max open files")) {
          String[] words = line.substring("Max open files".length()).trim().split("\\s+");
          return words[0].equals("unlimited") ? -1 : Long.parseLong(words[0]);
        }
      }
    } catch (IOException | RuntimeException e) {
      return -1;
    }
    return -1;
  }
}
