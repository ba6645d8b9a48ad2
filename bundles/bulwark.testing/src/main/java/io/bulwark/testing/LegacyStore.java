package io.bulwark.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPInputStream;

/**
 * A data folder written by Bulwark 0.1 (the store as one component with fixed maps), for the tests
 * that prove today's code opens yesterday's data. It was made by that version's store with: nodes
 * gpu-node-001 (GPUs 0 GPU-aaaa and 1 GPU-bbbb, NVIDIA H100 80GB HBM3, seen 2026-11-30T10:00:00Z)
 * and gpu-node-002 (GPU 0 GPU-cccc, a minute later); an open critical finding xid-gpu-node-001-1
 * (xid, GPU 1, "XID 79 on GPU 1", evidence xid=79, factor 0, 3 occurrences) and a resolved warning
 * thermal-gpu-node-002-0; users admin (ADMIN, one failure 5 s before) and olga (OPERATOR, must
 * change her password, locked for 900 s); the token 0123456789abcdef01234567 ("ci", OPERATOR, by
 * admin, valid one day); and two hours of capacity account from 09:00 (1.5 GPU-hours lost to
 * failure, 0.25 to throttle) and 10:00.
 */
public final class LegacyStore {
  /** The database file's name in the data folder. */
  public static final String FILE = "bulwark.db";

  private LegacyStore() {}

  /** Writes the 0.1 data folder's database into {@code folder} and returns the folder. */
  public static Path unpack(Path folder) {
    try (InputStream gz = LegacyStore.class.getResourceAsStream("store-0.1.db.gz")) {
      if (gz == null) {
        throw new IllegalStateException("the fixture store-0.1.db.gz is missing from the jar");
      }
      Files.createDirectories(folder);
      try (InputStream in = new GZIPInputStream(gz)) {
        Files.write(folder.resolve(FILE), in.readAllBytes());
      }
      return folder;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
