package io.bulwark.store.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.bulwark.api.store.StoreMap;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kills a writing JVM with SIGKILL in the middle of its writes, several times over at random
 * points, and proves after each kill that every write it had acknowledged is in the store, that
 * every write is there whole (each writes three maps in one transaction) or not at all, that the
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
      try (MapDbRecordStore reopened = new MapDbRecordStore(new StoreOptions(dir))) {
        for (int i : acknowledged) {
          assertThat(Notes.get(reopened, "note-" + i))
              .as("round %d: acknowledged note %d", round, i)
              .isPresent();
        }
        Set<String> byId = keys(reopened, Notes.BY_ID);
        assertThat(keys(reopened, Notes.COPIES))
            .as("round %d: each write was kept whole, in both maps or in neither", round)
            .isEqualTo(byId);
        int numbered = reopened.read(s -> s.map(Notes.BY_NUMBER).size());
        assertThat(numbered).isEqualTo(byId.size());
        Notes.put(reopened, "after-crash-" + round, 100);
      }
      next = lastAcknowledged + 2; // the write after the last acknowledged one may or may not be in
    }
    try (MapDbRecordStore again = new MapDbRecordStore(new StoreOptions(dir))) {
      for (int round = 0; round < ROUNDS; round++) {
        assertThat(Notes.get(again, "after-crash-" + round)).isPresent();
      }
    }
  }

  private static Set<String> keys(MapDbRecordStore store, StoreMap<String, ?> map) {
    Set<String> keys = new TreeSet<>();
    store.read(s -> s.map(map).entries()).forEach(e -> keys.add(e.getKey()));
    keys.removeIf(k -> k.startsWith("after-crash-"));
    return keys;
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
}
