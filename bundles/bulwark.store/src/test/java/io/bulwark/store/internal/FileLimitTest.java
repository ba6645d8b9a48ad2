package io.bulwark.store.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The store in a process that runs out of file descriptors (a real {@code ulimit -n} and real
 * files): its commits need no new descriptor, so writes go on; nothing breaks the store for the
 * writes after the descriptors come back; a restart opens every acknowledged record.
 */
class FileLimitTest {

  @TempDir Path dir;

  @Test
  void runningOutOfFileDescriptorsNeverBreaksTheStore() throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    String command =
        "ulimit -n 256 && exec '"
            + java
            + "' -cp '"
            + System.getProperty("java.class.path")
            + "' "
            + FileLimitWriterProcess.class.getName()
            + " '"
            + dir
            + "'";
    Process child = new ProcessBuilder("bash", "-c", command).redirectErrorStream(true).start();
    String output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(child.waitFor(120, TimeUnit.SECONDS)).isTrue();
    List<String> lines = output.lines().toList();

    assertThat(lines).as(output).anyMatch(l -> l.startsWith("exhausted after "));
    assertThat(lines).as(output).noneMatch(l -> l.startsWith("failed "));
    assertThat(lines)
        .as("every write after the descriptors came back commits\n" + output)
        .filteredOn(l -> l.matches("\\w+ after-\\d+.*"))
        .hasSize(20)
        .allMatch(l -> l.startsWith("committed "));
    assertThat(lines).as(output).contains("closed");
    assertThat(child.exitValue()).as(output).isZero();

    List<String> acknowledged =
        lines.stream()
            .filter(l -> l.startsWith("committed "))
            .map(l -> l.substring("committed ".length()))
            .toList();
    try (MapDbRecordStore reopened = new MapDbRecordStore(new StoreOptions(dir))) {
      for (String id : acknowledged) {
        assertThat(Notes.get(reopened, id)).as(id).isPresent();
      }
    }
  }
}
