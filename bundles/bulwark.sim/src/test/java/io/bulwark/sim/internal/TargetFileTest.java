package io.bulwark.sim.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TargetFileTest {
  @TempDir Path dir;

  @Test
  void listsOneTargetPerNodeWithItsMetricsPath() {
    JsonArray entries =
        new JsonArray(
            TargetFile.content(List.of("gpu-node-001", "gpu-node-002"), "127.0.0.1:9400"));

    assertThat(entries).hasSize(2);
    assertThat(entries.getJsonObject(1))
        .isEqualTo(
            new JsonObject()
                .put("targets", new JsonArray().add("127.0.0.1:9400"))
                .put(
                    "labels",
                    new JsonObject()
                        .put("__metrics_path__", "/nodes/gpu-node-002/metrics")
                        .put("node", "gpu-node-002")));
  }

  @Test
  void addressesWildcardsOverLoopbackAndBracketsIpv6() {
    assertThat(TargetFile.address("127.0.0.1", 9400)).isEqualTo("127.0.0.1:9400");
    assertThat(TargetFile.address("0.0.0.0", 9400)).isEqualTo("127.0.0.1:9400");
    assertThat(TargetFile.address("::", 1)).isEqualTo("[::1]:1");
    assertThat(TargetFile.address("::1", 80)).isEqualTo("[::1]:80");
    assertThat(TargetFile.address("sim.example", 80)).isEqualTo("sim.example:80");
  }

  @Test
  void createsMissingFoldersAndLeavesNoTemporaryFile() throws Exception {
    Path file = dir.resolve("a/b/targets.json");

    TargetFile.write(file, "[]\n");

    assertThat(file).hasContent("[]");
    try (Stream<Path> files = Files.list(file.getParent())) {
      assertThat(files).containsExactly(file);
    }
  }

  @Test
  void replacesTheFileWholeSoAWatcherNeverReadsHalfOfIt() throws Exception {
    Path file = dir.resolve("targets.json");
    String small = TargetFile.content(List.of("n1"), "127.0.0.1:1");
    String large =
        TargetFile.content(
            Stream.iterate(1, i -> i + 1).limit(2000).map(i -> "gpu-node-" + i).toList(),
            "127.0.0.1:2");
    TargetFile.write(file, large);
    AtomicBoolean done = new AtomicBoolean();
    AtomicInteger reads = new AtomicInteger();
    AtomicReference<String> torn = new AtomicReference<>();
    Thread reader =
        new Thread(
            () -> {
              while (!done.get()) {
                try {
                  String seen = Files.readString(file);
                  reads.incrementAndGet();
                  if (!seen.equals(small) && !seen.equals(large)) {
                    torn.set(seen.length() + " characters");
                  }
                } catch (Exception e) {
                  torn.set(e.toString());
                }
              }
            });
    reader.start();
    for (int i = 0; i < 200; i++) {
      TargetFile.write(file, i % 2 == 0 ? small : large);
    }
    done.set(true);
    reader.join(10_000);

    assertThat(torn.get()).as("a read saw a partial file").isNull();
    assertThat(reads.get()).isPositive();
    try (Stream<Path> files = Files.list(dir)) {
      assertThat(files).containsExactly(file);
    }
  }
}
