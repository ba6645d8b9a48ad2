package io.bulwark.telemetry.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.bulwark.api.telemetry.ScrapeTarget;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TargetsFileWatcherTest {
  @TempDir Path dir;
  private final List<List<ScrapeTarget>> delivered = new ArrayList<>();

  private void write(Path file, String json, int second) throws IOException {
    Files.writeString(file, json);
    Files.setLastModifiedTime(file, FileTime.from(Instant.ofEpochSecond(1_700_000_000L + second)));
  }

  @Test
  void waitsForAFileThatDoesNotExistYet() throws IOException {
    Path file = dir.resolve("sim-targets.json");
    TargetsFileWatcher watcher = new TargetsFileWatcher(file, delivered::add);

    watcher.poll();
    watcher.poll();
    assertThat(delivered).isEmpty();
    assertThat(watcher.problem()).contains("does not exist (yet)").contains(file.toString());

    write(file, "[{\"targets\":[\"10.0.0.1:9400\"]}]", 1);
    watcher.poll();

    assertThat(delivered).hasSize(1);
    assertThat(delivered.get(0)).extracting(ScrapeTarget::address).containsExactly("10.0.0.1:9400");
    assertThat(watcher.problem()).isEmpty();
  }

  @Test
  void rereadsTheFileWhenItChangesAndOnlyThen() throws IOException {
    Path file = dir.resolve("targets.json");
    write(file, "[{\"targets\":[\"10.0.0.1:9400\"]}]", 1);
    TargetsFileWatcher watcher = new TargetsFileWatcher(file, delivered::add);
    watcher.poll();
    watcher.poll();
    assertThat(delivered).hasSize(1);

    write(
        file,
        "[{\"targets\":[\"10.0.0.1:9400\",\"10.0.0.2:9400\"],"
            + "\"labels\":{\"__metrics_path__\":\"/m\"}}]",
        2);
    watcher.poll();

    assertThat(delivered).hasSize(2);
    assertThat(delivered.get(1))
        .extracting(ScrapeTarget::url)
        .containsExactly("http://10.0.0.1:9400/m", "http://10.0.0.2:9400/m");
    assertThat(watcher.targets()).isEqualTo(delivered.get(1));
  }

  @Test
  void keepsThePreviousTargetsWhenTheFileBecomesMalformed() throws IOException {
    Path file = dir.resolve("targets.json");
    write(file, "[{\"targets\":[\"10.0.0.1:9400\",\"10.0.0.2:9400\"]}]", 1);
    TargetsFileWatcher watcher = new TargetsFileWatcher(file, delivered::add);
    watcher.poll();

    write(file, "[{\"targets\":[\"10.0.0.1:9400\",", 2);
    watcher.poll();

    assertThat(delivered).hasSize(1);
    assertThat(watcher.targets()).hasSize(2);
    assertThat(watcher.problem())
        .contains("is malformed")
        .contains("not a JSON array")
        .endsWith("still scraping the previous 2 targets");

    write(file, "[{\"targets\":[\"10.0.0.3:9400\"]}]", 3);
    watcher.poll();

    assertThat(watcher.problem()).isEmpty();
    assertThat(delivered).hasSize(2);
    assertThat(delivered.get(1)).extracting(ScrapeTarget::address).containsExactly("10.0.0.3:9400");
  }

  @Test
  void keepsTheTargetsWhenTheFileDisappears() throws IOException {
    Path file = dir.resolve("targets.json");
    write(file, "[{\"targets\":[\"10.0.0.1:9400\"]}]", 1);
    TargetsFileWatcher watcher = new TargetsFileWatcher(file, delivered::add);
    watcher.poll();

    Files.delete(file);
    watcher.poll();

    assertThat(watcher.targets()).hasSize(1);
    assertThat(watcher.problem())
        .contains("does not exist")
        .endsWith("still scraping the previous 1 targets");
  }
}
