package io.bulwark.store.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * A real, small filesystem for disk-full tests: a tmpfs of a few MiB mounted on a fresh folder
 * (needs root, as in CI; elsewhere the test is skipped and says why), with a filler file that takes
 * all but a chosen number of its bytes. Unmounted on close.
 */
final class SmallDisk implements AutoCloseable {
  final Path root;
  private final Path filler;

  private SmallDisk(Path root) {
    this.root = root;
    this.filler = root.resolve("filler");
  }

  static SmallDisk mount(Path parent, int megabytes) throws Exception {
    Path root = Files.createDirectories(parent.resolve("small-disk"));
    Process mount =
        new ProcessBuilder(
                "mount",
                "-t",
                "tmpfs",
                "-o",
                "size=" + megabytes + "m,mode=0700",
                "tmpfs",
                root.toString())
            .redirectErrorStream(true)
            .start();
    String output = new String(mount.getInputStream().readAllBytes());
    Assumptions.assumeTrue(
        mount.waitFor(30, TimeUnit.SECONDS) && mount.exitValue() == 0,
        "mounting a " + megabytes + " MiB tmpfs needs root (CI runs as root): " + output);
    return new SmallDisk(root);
  }

  /** Returns the bytes free on the disk. */
  long free() throws IOException {
    return Files.getFileStore(root).getUsableSpace();
  }

  /** Grows the filler file until only {@code leave} bytes are free (or the disk is full). */
  void fillLeaving(long leave) throws IOException {
    long grow = free() - leave;
    try (RandomAccessFile f = new RandomAccessFile(filler.toFile(), "rw")) {
      byte[] block = new byte[64 * 1024];
      long at = f.length();
      f.seek(at);
      while (grow > 0) {
        int n = (int) Math.min(block.length, grow);
        try {
          f.write(block, 0, n);
        } catch (IOException full) {
          break;
        }
        grow -= n;
      }
    }
    assertThat(free()).isLessThanOrEqualTo(Math.max(leave, 0) + 64 * 1024);
  }

  /** Deletes the filler file: the disk has room again. */
  void makeRoom() throws IOException {
    Files.deleteIfExists(filler);
  }

  @Override
  public void close() throws Exception {
    new ProcessBuilder("umount", "-l", root.toString()).inheritIO().start().waitFor();
  }
}
