package io.bulwark.lib.files;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A file is replaced whole, readable by its owner only, in a folder made private, with no temporary
 * file left behind; a write that fails leaves the old content.
 */
class AtomicFileTest {
  @TempDir Path dir;

  @Test
  void aFileIsReplacedWholeAndKeptPrivate() throws IOException {
    Path target = dir.resolve("keys").resolve("secret.bin");
    AtomicFile.write(target, "first".getBytes(StandardCharsets.UTF_8));
    AtomicFile.writeOrdered(target, "second".getBytes(StandardCharsets.UTF_8));

    assertThat(Files.readString(target)).isEqualTo("second");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(target)))
        .isEqualTo("rw-------");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(target.getParent())))
        .isEqualTo("rwx------");
    try (Stream<Path> files = Files.list(target.getParent())) {
      assertThat(files).containsExactly(target);
    }
  }

  @Test
  void aWriteThatCannotReplaceTheTargetLeavesItAndNoTemporaryFile() throws IOException {
    Path target = dir.resolve("busy");
    Files.createDirectories(target.resolve("child")); // a non-empty folder cannot be replaced
    assertThatThrownBy(() -> AtomicFile.write(target, new byte[] {1, 2, 3}))
        .isInstanceOf(IOException.class);
    assertThat(target.resolve("child")).isDirectory();
    try (Stream<Path> files = Files.list(dir)) {
      assertThat(files).containsExactly(target);
    }
  }

  @Test
  void deletingAFileThatIsNotThereIsNoError() throws IOException {
    Path target = dir.resolve("gone");
    AtomicFile.write(target, new byte[] {7});
    AtomicFile.delete(target);
    AtomicFile.delete(target);
    assertThat(target).doesNotExist();
  }
}
