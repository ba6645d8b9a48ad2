package io.bulwark.store.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.bulwark.api.fleet.NodeId;
import io.bulwark.api.health.FindingQuery;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kills a writing JVM with SIGKILL in the middle of its writes and proves that every write it had
 * acknowledged is in the store, and that the store opens cleanly afterwards.
 */
class CrashSafetyTest {

  @TempDir Path dir;

  @Test
  void everyAcknowledgedWriteSurvivesKillMinus9() throws Exception {
    Process writer =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                StoreWriterProcess.class.getName(),
                dir.toString())
            .redirectErrorStream(true)
            .start();
    int lastAcknowledged = -1;
    try (BufferedReader out =
        new BufferedReader(
            new InputStreamReader(writer.getInputStream(), StandardCharsets.UTF_8))) {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      String line;
      while ((line = out.readLine()) != null && System.nanoTime() < deadline) {
        if (line.startsWith("committed ")) {
          lastAcknowledged = Integer.parseInt(line.substring("committed ".length()));
          if (lastAcknowledged >= 300) {
            break;
          }
        }
      }
      // SIGKILL on Linux: no shutdown hook, no close, writes possibly half done.
      writer.destroyForcibly();
      assertThat(writer.waitFor(30, TimeUnit.SECONDS)).isTrue();
    }
    assertThat(lastAcknowledged)
        .as("writes acknowledged before the kill")
        .isGreaterThanOrEqualTo(300);

    try (MapDbStore reopened = new MapDbStore(new StoreOptions(dir))) {
      for (int i = 0; i <= lastAcknowledged; i++) {
        assertThat(reopened.get("finding-" + i)).as("acknowledged finding %d", i).isPresent();
      }
      assertThat(reopened.find(FindingQuery.open().withLimit(100_000)))
          .hasSizeGreaterThan(lastAcknowledged);
      assertThat(reopened.node(NodeId.of("gpu-node-0"))).isPresent();
      reopened.save(
          MapDbStoreTest.finding(
              "after-crash",
              "xid",
              NodeId.of("gpu-node-1"),
              io.bulwark.api.health.FindingState.OPEN,
              java.time.Instant.now()));
    }
    try (MapDbStore again = new MapDbStore(new StoreOptions(dir))) {
      assertThat(again.get("after-crash")).isPresent();
    }
  }
}
