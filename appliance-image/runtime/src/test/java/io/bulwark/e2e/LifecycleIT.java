package io.bulwark.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The exported runtime as an admin runs it: starts listening in a few seconds, stops cleanly on
 * SIGTERM (components deactivated, store closed), keeps its framework storage and data across
 * restarts, and refuses a bad setting at start naming it. The restart happens under CPU contention,
 * two busy-looping processes beside it on the two cores, and still reaches "started" with no SEVERE
 * line (once, a start under load logged a service factory's lock timeout).
 */
class LifecycleIT {

  @Test
  void stopsCleanlyOnSigtermAndKeepsItsDataAcrossARestart() throws Exception {
    Path work = RunningAppliance.workDir("lifecycle");
    String inventoryBefore;
    try (RunningAppliance first = RunningAppliance.demo(work, Map.of())) {
      double seconds = first.awaitUp(Duration.ofSeconds(60));
      System.out.printf("first start: listening %.1f s after JVM start%n", seconds);
      assertThat(seconds).as("seconds until the API answers").isLessThan(20);
      long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
      JsonArray nodes = new JsonArray();
      while (nodes.size() < 64 && System.nanoTime() < deadline) {
        Thread.sleep(500);
        var r = first.get("/api/v1/nodes");
        assertThat(r.statusCode())
            .as("GET /api/v1/nodes once started: %s", r.body())
            .isEqualTo(200);
        nodes = nodesOf(r.body());
      }
      assertThat(nodes).hasSize(64);
      inventoryBefore =
          nodes.stream().map(n -> ((JsonObject) n).getString("id")).sorted().toList().toString();

      assertThat(first.terminate(Duration.ofSeconds(40)))
          .as("exit status after SIGTERM")
          .isIn(0, 143);
      assertThat(first.console()).contains("store closed cleanly");
    }
    assertThat(work.resolve("data/bulwark.db")).exists();
    assertThat(Files.list(work.resolve("data/framework")).count()).isGreaterThan(0);

    List<Process> busy = new ArrayList<>();
    try (RunningAppliance second = RunningAppliance.demo(work, Map.of())) {
      for (int i = 0; i < 2; i++) {
        busy.add(new ProcessBuilder("sh", "-c", "while :; do :; done").start());
      }
      double seconds = second.awaitUp(Duration.ofSeconds(90));
      System.out.printf(
          "restart beside two busy loops: listening %.1f s after JVM start%n", seconds);
      busy.forEach(Process::destroyForcibly);
      assertThat(second.console()).contains("Bulwark started").doesNotContain("SEVERE");
      // The inventory is served from the store before the first scrape of this run has finished.
      var answer = second.get("/api/v1/nodes");
      assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
      JsonArray nodes = nodesOf(answer.body());
      assertThat(
              nodes.stream()
                  .map(n -> ((JsonObject) n).getString("id"))
                  .sorted()
                  .toList()
                  .toString())
          .isEqualTo(inventoryBefore);
      assertThat(second.console()).doesNotContain("Exception");
    } finally {
      busy.forEach(Process::destroyForcibly);
    }
  }

  @Test
  void aBadSettingStopsStartUpNamingTheSetting() throws Exception {
    Path work = RunningAppliance.workDir("bad-setting");
    ProcessBuilder pb =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar",
                System.getProperty("bulwark.demo.jar"))
            .directory(work.toFile())
            .redirectErrorStream(true)
            .redirectOutput(work.resolve("console.log").toFile());
    pb.environment().keySet().removeIf(k -> k.startsWith("BULWARK_"));
    pb.environment().put("BULWARK_DATA_DIR", work.resolve("data").toString());
    pb.environment().put("BULWARK_HTTPS_PORT", "eighty");
    Process p = pb.start();
    try {
      assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("Bulwark exits on a bad setting").isTrue();
    } finally {
      p.destroyForcibly();
    }
    String out = Files.readString(work.resolve("console.log"));
    assertThat(p.exitValue()).isEqualTo(78);
    assertThat(out).contains("BULWARK_HTTPS_PORT").contains("eighty").contains("1 to 65535");
  }

  static JsonArray nodesOf(String body) {
    Object v = io.vertx.core.json.Json.decodeValue(body);
    return v instanceof JsonArray a ? a : ((JsonObject) v).getJsonArray("nodes");
  }
}
