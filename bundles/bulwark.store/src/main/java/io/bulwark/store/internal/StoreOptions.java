package io.bulwark.store.internal;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;

/**
 * The store's settings, checked once: the folder that holds the database file, the free space it
 * keeps on that disk, and how many pages it caches.
 */
record StoreOptions(Path dataDir, long reserveBytes, int cachedPages) {

  static final String FILE_NAME = "bulwark.db";
  static final long DEFAULT_RESERVE_BYTES = 256L << 20;
  static final int DEFAULT_CACHED_PAGES = (32 << 20) / PageFile.PAGE_SIZE;

  StoreOptions {
    if (reserveBytes < 0) {
      throw new IllegalArgumentException(
          "store setting minFreeMegabytes must not be negative, not " + (reserveBytes >> 20));
    }
    if (cachedPages < 1) {
      throw new IllegalArgumentException("store setting cacheMegabytes must be at least 1");
    }
  }

  /** The store in {@code dataDir} with the default reserve and cache. */
  StoreOptions(Path dataDir) {
    this(dataDir, DEFAULT_RESERVE_BYTES, DEFAULT_CACHED_PAGES);
  }

  static StoreOptions from(StoreConfig config) {
    String dir = config.dataDir();
    if (dir == null || dir.isBlank()) {
      throw new IllegalArgumentException(
          "store setting dataDir (BULWARK_DATA_DIR) is empty: give a folder");
    }
    if (config.minFreeMegabytes() < 0 || config.minFreeMegabytes() > (1L << 40)) {
      throw new IllegalArgumentException(
          "store setting minFreeMegabytes must be between 0 and 2^40, not "
              + config.minFreeMegabytes());
    }
    if (config.cacheMegabytes() < 1 || config.cacheMegabytes() > 65_536) {
      throw new IllegalArgumentException(
          "store setting cacheMegabytes must be between 1 and 65536, not "
              + config.cacheMegabytes());
    }
    try {
      return new StoreOptions(
          Path.of(dir.trim()).toAbsolutePath().normalize(),
          config.minFreeMegabytes() << 20,
          (int) (((long) config.cacheMegabytes() << 20) / PageFile.PAGE_SIZE));
    } catch (InvalidPathException e) {
      throw new IllegalArgumentException(
          "store setting dataDir (BULWARK_DATA_DIR) is not a path: '" + dir + "'", e);
    }
  }

  Path databaseFile() {
    return dataDir.resolve(FILE_NAME);
  }
}
