package io.bulwark.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The demo's machines end to end, each with a simulated Redfish BMC on a loopback address of its
 * own: the demo adds, probes, pins and deploys them by itself; their sensors and event log are
 * read; a fault on a BMC becomes a finding with the reading as evidence; a machine powered off
 * through Bulwark stops reporting telemetry (its GPUs go unknown) and comes back when powered on.
 */
@ExtendWith(SharedAppliance.class)
class DemoMachinesIT {
  /** The shared fleet's nodes this class reads; a fan fails on the first, the second is powered. */
  private static final String FAN_NODE = SharedAppliance.node(33);

  private static final String POWERED_NODE = SharedAppliance.node(35);
  private static final List<String> NODES =
      List.of(FAN_NODE, SharedAppliance.node(34), POWERED_NODE, SharedAppliance.node(36));

  @Test
  void theDemosMachinesAreDeployedReadJudgedAndPoweredThroughTheirBmcs(RunningAppliance bulwark)
      throws Exception {
    try {

      // Added, pinned and deployed by the demo, then read.
      for (String node : NODES) {
        JsonObject m =
            await(
                bulwark,
                "/api/v1/machines/" + node,
                j -> "deployed".equals(j.getString("state")) && "on".equals(j.getString("power")),
                Duration.ofSeconds(60));
        assertThat(m.getJsonObject("bmc").getString("pinnedSha256")).hasSize(64);
        assertThat(m.getString("node")).isEqualTo(node);
      }
      JsonObject sensors =
          await(
              bulwark,
              "/api/v1/machines/" + FAN_NODE + "/sensors",
              j -> !j.getJsonArray("sensors").isEmpty(),
              Duration.ofSeconds(30));
      assertThat(sensors.getJsonArray("sensors").size()).isEqualTo(25);
      assertThat(sensors.getJsonArray("events").size()).isEqualTo(2);
      JsonObject inventory = json(bulwark.get("/api/v1/machines/" + FAN_NODE + "/inventory"));
      long gpus =
          inventory.getJsonArray("components").stream()
              .map(JsonObject.class::cast)
              .filter(c -> c.getString("kind").equals("gpu"))
              .count();
      assertThat(gpus).isEqualTo(8);
      List<String> history =
          json(bulwark.get("/api/v1/machines/" + FAN_NODE + "/history"))
              .getJsonArray("history")
              .stream()
              .map(e -> ((JsonObject) e).getString("operation"))
              .toList();
      assertThat(history)
          .containsSubsequence(
              "add", "probe", "probe done", "pin-certificate", "commission", "deploy");

      // A failed fan on one BMC: a finding on that node, with the fan's reading as evidence, at
      // the next read of the BMC (every 60 s).
      HttpResponse<String> fault =
          bulwark.send(
              "POST",
              bulwark.simUrl("/sim/bmcs/" + FAN_NODE + "/faults"),
              new JsonObject().put("kind", "fan-failed").encode());
      assertThat(fault.statusCode()).as(fault.body()).isEqualTo(201);
      JsonObject finding = awaitFinding(bulwark, "bmc-fan", FAN_NODE, Duration.ofSeconds(100));
      assertThat(finding.getString("severity")).isEqualTo("warning");
      assertThat(finding.getJsonObject("evidence").getString("fan")).isEqualTo("Fan 3");
      assertThat(finding.getJsonObject("evidence").getString("machine")).isEqualTo(FAN_NODE);

      // Power off through the BMC: the node stops answering its scrapes, then comes back.
      HttpResponse<String> off =
          bulwark.send(
              "POST",
              bulwark.baseUrl() + "/api/v1/machines/" + POWERED_NODE + "/power-off",
              new JsonObject().put("reason", "cabling").encode());
      assertThat(off.statusCode()).as(off.body()).isEqualTo(202);
      await(
          bulwark,
          "/api/v1/machines/" + POWERED_NODE,
          j -> "off".equals(j.getString("power")) && j.getValue("pending") == null,
          Duration.ofSeconds(45));
      assertThat(
              new JsonArray(bulwark.send("GET", bulwark.simUrl("/sim/bmcs"), null).body())
                  .stream()
                      .map(JsonObject.class::cast)
                      .filter(b -> b.getString("node").equals(POWERED_NODE))
                      .findFirst()
                      .orElseThrow()
                      .getString("power"))
          .isEqualTo("Off");
      awaitFinding(bulwark, "telemetry-stale", POWERED_NODE, Duration.ofSeconds(60));
      HttpResponse<String> on =
          bulwark.send(
              "POST", bulwark.baseUrl() + "/api/v1/machines/" + POWERED_NODE + "/power-on", "{}");
      assertThat(on.statusCode()).as(on.body()).isEqualTo(202);
      await(
          bulwark,
          "/api/v1/machines/" + POWERED_NODE,
          j -> "on".equals(j.getString("power")) && j.getValue("pending") == null,
          Duration.ofSeconds(45));
    } finally {
      bulwark.send("DELETE", bulwark.simUrl("/sim/bmcs/" + FAN_NODE + "/faults"), null);
    }
  }

  private static JsonObject json(HttpResponse<String> r) {
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    return new JsonObject(r.body());
  }

  private static JsonObject await(
      RunningAppliance bulwark, String path, Predicate<JsonObject> done, Duration limit)
      throws Exception {
    long deadline = System.nanoTime() + limit.toNanos();
    JsonObject last = null;
    while (System.nanoTime() < deadline) {
      HttpResponse<String> r = bulwark.get(path);
      Runs.assertAnswered(r, path);
      if (r.statusCode() == 200) {
        last = new JsonObject(r.body());
        if (done.test(last)) {
          return last;
        }
      }
      Thread.sleep(500);
    }
    throw new AssertionError("timed out waiting on " + path + "; last answer: " + last);
  }

  private static JsonObject awaitFinding(
      RunningAppliance bulwark, String kind, String node, Duration limit) throws Exception {
    long deadline = System.nanoTime() + limit.toNanos();
    while (System.nanoTime() < deadline) {
      String path = "/api/v1/findings?state=open&kind=" + kind + "&node=" + node;
      HttpResponse<String> r = bulwark.get(path);
      Runs.assertAnswered(r, path);
      if (r.statusCode() == 200) {
        JsonArray found = findings(r.body());
        if (!found.isEmpty()) {
          return found.getJsonObject(0);
        }
      }
      Thread.sleep(1000);
    }
    throw new AssertionError("no open " + kind + " finding on " + node + " within " + limit);
  }

  private static JsonArray findings(String body) {
    Object v = io.vertx.core.json.Json.decodeValue(body);
    return v instanceof JsonArray a ? a : ((JsonObject) v).getJsonArray("findings");
  }
}
