package io.bulwark.store.internal;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;

/** The store's settings, checked once: the folder that holds the database file. */
record StoreOptions(Path dataDir) {

  static final String FILE_NAME = "bulwark.db";

  static StoreOptions from(StoreConfig config) {
    String dir = config.dataDir();
    if (dir == null || dir.isBlank()) {
      throw new IllegalArgumentException(
          "store setting dataDir (BULWARK_DATA_DIR) is empty: give a folder");
    }
    try {
      return new StoreOptions(Path.of(dir.trim()).toAbsolutePath().normalize());
    } catch (InvalidPathException e) {
      throw new IllegalArgumentException(
          "store setting dataDir (BULWARK_DATA_DIR) is not a path: '" + dir + "'", e);
    }
  }

  Path databaseFile() {
    return dataDir.resolve(FILE_NAME);
  }
}
