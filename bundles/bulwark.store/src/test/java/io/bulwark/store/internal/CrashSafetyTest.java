package io.bulwark.store.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.bulwark.api.fleet.NodeId;
import io.bulwark.api.health.Finding;
import io.bulwark.api.health.FindingQuery;
import io.bulwark.api.health.FindingState;
import io.bulwark.api.health.Severity;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kills a writing JVM with SIGKILL in the middle of its writes, several times over at random
 * points, and proves after each kill that every write it had acknowledged is in the store, that the
 * store opens cleanly, and that it takes writes again.
 */
class CrashSafetyTest {
  private static final int ROUNDS = 6;

  @TempDir Path dir;

  @Test
  void everyAcknowledgedWriteSurvivesRepeatedKillMinus9() throws Exception {
    Random random = new Random(7);
    java.util.List<Integer> acknowledged = new java.util.ArrayList<>();
    int next = 0;
    for (int round = 0; round < ROUNDS; round++) {
      int target = next + 40 + random.nextInt(200);
      int lastAcknowledged = runAndKill(next, target);
      assertThat(lastAcknowledged)
          .as("round %d: writes acknowledged before the kill", round)
          .isGreaterThanOrEqualTo(target);
      for (int i = next; i <= lastAcknowledged; i++) {
        acknowledged.add(i);
      }
      try (MapDbStore reopened = new MapDbStore(new StoreOptions(dir))) {
        for (int i : acknowledged) {
          assertThat(reopened.get("finding-" + i))
              .as("round %d: acknowledged finding %d", round, i)
              .isPresent();
        }
        assertThat(reopened.find(FindingQuery.open().withLimit(1_000_000)))
            .hasSizeGreaterThanOrEqualTo(acknowledged.size());
        assertThat(reopened.node(NodeId.of("gpu-node-0"))).isPresent();
        reopened.save(finding("after-crash-" + round, NodeId.of("gpu-node-1"), 0));
      }
      next = lastAcknowledged + 2; // the write after the last acknowledged one may or may not be in
    }
    try (MapDbStore again = new MapDbStore(new StoreOptions(dir))) {
      for (int round = 0; round < ROUNDS; round++) {
        assertThat(again.get("after-crash-" + round)).isPresent();
      }
    }
  }

  /** Starts a writer from {@code from}, kills it once it acknowledged {@code target}. */
  private int runAndKill(int from, int target) throws Exception {
    Process writer =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                StoreWriterProcess.class.getName(),
                dir.toString(),
                Integer.toString(from))
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
          if (lastAcknowledged >= target) {
            break;
          }
        }
      }
      // SIGKILL on Linux: no shutdown hook, no close, a commit possibly half done.
      writer.destroyForcibly();
      assertThat(writer.waitFor(30, TimeUnit.SECONDS)).isTrue();
    }
    return lastAcknowledged;
  }

  static Finding finding(String id, NodeId node, int evidencePages) {
    return finding(id, node, FindingState.OPEN, Instant.ofEpochMilli(1_000_000L), evidencePages);
  }

  static Finding finding(
      String id, NodeId node, FindingState state, Instant at, int evidencePages) {
    return new Finding(
        id,
        "xid",
        node,
        0,
        Severity.CRITICAL,
        state,
        at,
        at,
        null,
        "xid on " + node,
        Map.of("log", "e".repeat(evidencePages * 3000)),
        "",
        1.0,
        1);
  }
}
