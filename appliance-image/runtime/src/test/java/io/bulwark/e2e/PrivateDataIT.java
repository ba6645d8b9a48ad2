package io.bulwark.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * What Bulwark keeps in its data folder (password hashes, the audit log, secrets, the TLS key
 * store, the framework storage) is readable by its own user only: every file it creates is 0600 in
 * 0700 folders, and what an earlier version or an administrator left readable by others is made
 * private at start and reported on the console.
 */
class PrivateDataIT {
  private static final Set<PosixFilePermission> OTHERS =
      EnumSet.complementOf(
          EnumSet.of(
              PosixFilePermission.OWNER_READ,
              PosixFilePermission.OWNER_WRITE,
              PosixFilePermission.OWNER_EXECUTE));

  @Test
  void everythingInTheDataFolderIsReadableByBulwarksUserOnly() throws Exception {
    Path work = RunningAppliance.workDir("private-data");
    Path data = Files.createDirectories(work.resolve("data"));
    Files.setPosixFilePermissions(data, PosixFilePermissions.fromString("rwxr-xr-x"));
    Path notes = Files.writeString(data.resolve("notes-left-by-an-admin.txt"), "rack plan");
    Files.setPosixFilePermissions(notes, PosixFilePermissions.fromString("rw-r--r--"));

    String firstConsole;
    try (RunningAppliance bulwark = RunningAppliance.demo(work, Map.of())) {
      bulwark.awaitUp(Duration.ofSeconds(60));
      assertThat(data.resolve("bulwark.db")).exists();
      assertThat(data.resolve("audit/audit.jsonl")).exists();

      assertThat(readableByOthers(data)).as("files and folders others can use").isEmpty();
      assertThat(bulwark.console())
          .contains("Made private what other users could read")
          .contains("notes-left-by-an-admin.txt");
      firstConsole = bulwark.console();
    }
    try (RunningAppliance again = RunningAppliance.demo(work, Map.of())) {
      again.awaitUp(Duration.ofSeconds(60));
      assertThat(readableByOthers(data)).isEmpty();
      assertThat(again.console().substring(firstConsole.length()))
          .as("the second start's console")
          .doesNotContain("Made private what other users could read");
    }
  }

  private static List<String> readableByOthers(Path folder) throws Exception {
    List<String> open = new ArrayList<>();
    try (Stream<Path> all = Files.walk(folder)) {
      for (Path p : all.toList()) {
        if (Files.isSymbolicLink(p)) {
          continue;
        }
        Set<PosixFilePermission> perms =
            Files.getPosixFilePermissions(p, LinkOption.NOFOLLOW_LINKS);
        if (perms.stream().anyMatch(OTHERS::contains)) {
          open.add(PosixFilePermissions.toString(perms) + " " + folder.relativize(p));
        }
      }
    }
    return open;
  }
}
