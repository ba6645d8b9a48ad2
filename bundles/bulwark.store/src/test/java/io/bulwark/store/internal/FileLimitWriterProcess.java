package io.bulwark.store.internal;

import io.bulwark.api.store.StoreUnavailableException;
import java.io.FileInputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A child process for the file-limit test, started under a low {@code ulimit -n}: writes notes,
 * then opens files until the process has no descriptor left, writes again, closes those files and
 * writes once more. Prints "committed ID" for every write that returned, "refused ID" for every
 * write refused with {@link StoreUnavailableException}, "failed ID" for any other failure.
 */
public final class FileLimitWriterProcess {
  private FileLimitWriterProcess() {}

  public static void main(String[] args) throws Exception {
    // Load what a refusal needs before no descriptor is left to read a class from a jar.
    Class.forName(StoreUnavailableException.class.getName());
    MapDbRecordStore store =
        new MapDbRecordStore(
            new StoreOptions(Path.of(args[0]), 0, StoreOptions.DEFAULT_CACHED_PAGES));
    write(store, "before", 20);
    List<FileInputStream> hog = new ArrayList<>();
    try {
      while (true) {
        hog.add(new FileInputStream("/dev/null"));
      }
    } catch (IOException exhausted) {
      System.out.println("exhausted after " + hog.size() + " files: " + exhausted.getMessage());
    }
    write(store, "exhausted", 20);
    for (FileInputStream f : hog) {
      f.close();
    }
    System.out.println("released");
    write(store, "after", 20);
    store.close();
    System.out.println("closed");
  }

  private static void write(MapDbRecordStore store, String prefix, int count) {
    for (int i = 0; i < count; i++) {
      String id = prefix + "-" + i;
      try {
        Notes.put(store, id, 100);
        System.out.println("committed " + id);
      } catch (StoreUnavailableException e) {
        System.out.println("refused " + id + " " + e.getMessage());
      } catch (RuntimeException e) {
        System.out.println("failed " + id + " " + e);
      }
    }
  }
}
