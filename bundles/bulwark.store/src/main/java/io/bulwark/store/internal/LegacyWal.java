package io.bulwark.store.internal;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Removes the write-ahead-log files ({@code bulwark.db.wal.N}) that stores written by earlier
 * versions of Bulwark may have left beside the data file. MapDB never read them back when it opened
 * a file (its write-ahead log was only a staging area during a commit), so they hold nothing the
 * store needs; a disk that filled up could leave hundreds of them.
 */
final class LegacyWal {
  private static final System.Logger LOG = System.getLogger(LegacyWal.class.getName());

  private LegacyWal() {}

  /** Deletes the leftovers of {@code dataFile} and says how many there were. */
  static int remove(Path dataFile) {
    Path folder = dataFile.toAbsolutePath().getParent();
    String prefix = dataFile.getFileName() + ".wal.";
    int removed = 0;
    long bytes = 0;
    try (DirectoryStream<Path> leftovers = Files.newDirectoryStream(folder, prefix + "*")) {
      for (Path p : leftovers) {
        String suffix = p.getFileName().toString().substring(prefix.length());
        if (!suffix.chars().allMatch(Character::isDigit) || suffix.isEmpty()) {
          continue;
        }
        bytes += Files.size(p);
        Files.delete(p);
        removed++;
      }
    } catch (IOException e) {
      LOG.log(
          Level.WARNING,
          "Cannot remove the old write-ahead-log files beside {0} ({1}); they are unused and may"
              + " be deleted by hand",
          dataFile,
          e.toString());
      return removed;
    }
    if (removed > 0) {
      LOG.log(
          Level.INFO,
          "Store {0}: removed {1} unused write-ahead-log file(s) of an earlier version ({2} bytes)",
          dataFile,
          removed,
          bytes);
    }
    return removed;
  }
}
