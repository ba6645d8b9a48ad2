package io.bulwark.lib.files;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * Writes files so that a crash leaves either the old content or the new, never a torn file: the
 * bytes go to a temporary file in the same folder, which is synced, then renamed over the target in
 * one step; {@link #write} also syncs the folder, so that the new content is there after a crash
 * once it returns, {@link #writeOrdered} leaves that to the file system (a crash may then keep the
 * old content, whole), for files rewritten often whose last version may lag (the audit anchor).
 * Files and folders are created readable by the owner only (0600, 0700) where the file system has
 * POSIX permissions. Used by the secret store, the TLS keystore, the audit anchor and the
 * simulator's targets file. Thread-safe for different targets; writers of one target serialize
 * themselves.
 */
public final class AtomicFile {
  /** The suffix of temporary files; a leftover one is the trace of an interrupted write. */
  public static final String TEMPORARY_SUFFIX = ".tmp";

  private static final boolean POSIX =
      FileSystems.getDefault().supportedFileAttributeViews().contains("posix");
  private static final Set<PosixFilePermission> OWNER_FILE =
      PosixFilePermissions.fromString("rw-------");
  private static final Set<PosixFilePermission> OWNER_FOLDER =
      PosixFilePermissions.fromString("rwx------");

  private AtomicFile() {}

  /**
   * Replaces {@code target} with {@code content}, creating its folder; durable when this returns.
   *
   * @throws IOException if the file cannot be written (the target is then unchanged)
   */
  public static void write(Path target, byte[] content) throws IOException {
    replace(target, content);
    syncFolder(target.toAbsolutePath().getParent());
  }

  /**
   * Replaces {@code target} with {@code content}, creating its folder: after a crash the target
   * holds the old content or the new, whole, but the new may not be there yet.
   *
   * @throws IOException if the file cannot be written (the target is then unchanged)
   */
  public static void writeOrdered(Path target, byte[] content) throws IOException {
    replace(target, content);
  }

  private static void replace(Path target, byte[] content) throws IOException {
    Path folder = target.toAbsolutePath().getParent();
    createFolder(folder);
    Path temporary =
        POSIX
            ? Files.createTempFile(
                folder,
                "." + target.getFileName(),
                TEMPORARY_SUFFIX,
                PosixFilePermissions.asFileAttribute(OWNER_FILE))
            : Files.createTempFile(folder, "." + target.getFileName(), TEMPORARY_SUFFIX);
    try {
      try (FileChannel channel = FileChannel.open(temporary, StandardOpenOption.WRITE)) {
        ByteBuffer buffer = ByteBuffer.wrap(content);
        while (buffer.hasRemaining()) {
          channel.write(buffer);
        }
        channel.force(true);
      }
      Files.move(
          temporary, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (IOException | RuntimeException e) {
      Files.deleteIfExists(temporary);
      throw e;
    }
  }

  /**
   * Deletes {@code target} if it exists; durable when this returns.
   *
   * @throws IOException if it cannot be deleted
   */
  public static void delete(Path target) throws IOException {
    if (Files.deleteIfExists(target)) {
      syncFolder(target.toAbsolutePath().getParent());
    }
  }

  /**
   * Creates {@code folder} and its parents if missing, the folder itself readable by the owner
   * only.
   *
   * @throws IOException if it cannot be created
   */
  public static void createFolder(Path folder) throws IOException {
    if (Files.isDirectory(folder)) {
      return;
    }
    Path parent = folder.toAbsolutePath().getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
    FileAttribute<?>[] attributes =
        POSIX
            ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(OWNER_FOLDER)}
            : new FileAttribute<?>[0];
    Files.createDirectories(folder, attributes);
  }

  private static void syncFolder(Path folder) throws IOException {
    if (!POSIX) {
      return;
    }
    try (FileChannel channel = FileChannel.open(folder, StandardOpenOption.READ)) {
      channel.force(true);
    }
  }
}
