package io.bulwark.runtime.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FolderPermissionsTest {
  @TempDir Path dir;

  @Test
  void whatOthersCouldReadIsMadePrivateAndReportedLinksAreNotFollowed() throws Exception {
    Path data = Files.createDirectories(dir.resolve("data/audit"));
    Files.setPosixFilePermissions(
        dir.resolve("data"), PosixFilePermissions.fromString("rwxr-xr-x"));
    Files.setPosixFilePermissions(data, PosixFilePermissions.fromString("rwxr-x---"));
    Path log = Files.writeString(data.resolve("audit.jsonl"), "{}");
    Files.setPosixFilePermissions(log, PosixFilePermissions.fromString("rw-r--r--"));
    Path ok = Files.writeString(dir.resolve("data/bulwark.db"), "x");
    Files.setPosixFilePermissions(ok, PosixFilePermissions.fromString("rw-------"));
    Path outside = Files.writeString(dir.resolve("outside.txt"), "public");
    Files.setPosixFilePermissions(outside, PosixFilePermissions.fromString("rw-r--r--"));
    Files.createSymbolicLink(dir.resolve("data/link"), outside);

    FolderPermissions.Report report = FolderPermissions.makePrivate(dir.resolve("data"));

    assertThat(report.files()).isEqualTo(1);
    assertThat(report.folders()).isEqualTo(2);
    assertThat(report.describe())
        .contains("1 file(s) and 2 folder(s)")
        .contains("audit/audit.jsonl");
    assertThat(report.problems()).isEmpty();
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(log)))
        .isEqualTo("rw-------");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("data"))))
        .isEqualTo("rwx------");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(outside)))
        .as("a link's target outside the folder is left alone")
        .isEqualTo("rw-r--r--");

    assertThat(FolderPermissions.makePrivate(dir.resolve("data")).changed()).isZero();
  }
}
