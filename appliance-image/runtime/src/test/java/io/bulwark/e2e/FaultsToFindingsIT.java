package io.bulwark.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * End to end through the exported demo jar: the simulator serves dcgm-exporter pages, telemetry
 * scrapes them every second, the detectors judge them, and the findings appear over HTTP on the
 * right node and GPU within 60 s of the fault; after the fault clears they resolve.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class FaultsToFindingsIT {
  /**
   * Faults, each on its own busy node of the simulated fleet: the finding kind expected, the node,
   * the GPU, and the simulator's fault kind where it differs from the finding's. The slow-building
   * kinds (SBE rate over 10 minutes, a temperature creeping to its slowdown point, PCIe replays
   * over 2 minutes) are covered by the labelled fault suite instead.
   */
  private static final List<Object[]> FAULTS =
      List.of(
          new Object[] {"xid", "gpu-node-003", 1, "xid"},
          new Object[] {"ecc-dbe", "gpu-node-004", 2, "ecc-dbe"},
          new Object[] {"row-remap-failure", "gpu-node-005", 3, "row-remap-failure"},
          new Object[] {"thermal-throttle", "gpu-node-006", 4, "thermal-throttle"},
          new Object[] {"power-throttle", "gpu-node-007", 5, "power-throttle"},
          new Object[] {"straggler", "gpu-node-008", 6, "straggler"},
          new Object[] {"gpu-missing", "gpu-node-009", 7, "gpu-missing"},
          new Object[] {"nvlink-errors", "gpu-node-010", 0, "nvlink-errors"},
          new Object[] {"row-remap-pending", "gpu-node-011", 1, "row-remap-pending"},
          new Object[] {"retired-pages-pending", "gpu-node-012", 2, "retired-pages-pending"},
          new Object[] {"row-remap-failure", "gpu-node-013", 3, "spare-rows-low"},
          new Object[] {"pcie-downtrained", "gpu-node-014", 4, "pcie-downtrained"},
          new Object[] {"telemetry-stale", "gpu-node-015", -1, "telemetry-stale"});

  private static RunningAppliance bulwark;
  private static final Map<String, String> faultIds = new LinkedHashMap<>();

  @BeforeAll
  static void start() throws Exception {
    bulwark =
        RunningAppliance.demo(
            RunningAppliance.workDir("faults-to-findings"), Map.of("BULWARK_SIM_SCENARIO", "none"));
    double seconds = bulwark.awaitUp(Duration.ofSeconds(60));
    System.out.printf("demo listening %.1f s after JVM start%n", seconds);
  }

  @AfterAll
  static void stop() throws Exception {
    if (bulwark != null) {
      bulwark.close();
    }
  }

  @Test
  @Order(1)
  void aHealthyFleetHasNoOpenFindingsAndFullCapacity() throws Exception {
    awaitJson(
        "/api/v1/capacity",
        c -> c.getInteger("gpusInstalled", 0) == 64 * 8,
        Duration.ofSeconds(30));
    // Every detector judges the whole clean fleet at least once (some judge every 30 s only).
    Map<String, Long> before = judgements();
    assertThat(before).as("detectors judging").isNotEmpty();
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    Map<String, Long> judged = before;
    while (System.nanoTime() < deadline && !allJudgedAgain(before, judged)) {
      Thread.sleep(500);
      judged = judgements();
    }
    Map<String, Long> after = judged;
    assertThat(before.keySet())
        .as("detectors that judged again within 60 s")
        .allMatch(d -> now(after, d) > before.get(d));
    JsonObject capacity = new JsonObject(bulwark.get("/api/v1/capacity").body());
    assertThat(capacity.getInteger("gpusHealthy")).isEqualTo(512);
    assertThat(openFindings()).as("open findings on a healthy fleet").isEmpty();
  }

  @Test
  @Order(2)
  void everyInjectedFaultBecomesAnOpenFindingOfItsKindOnItsGpuWithin60Seconds() throws Exception {
    long injected = System.nanoTime();
    for (Object[] f : FAULTS) {
      JsonObject fault =
          new JsonObject().put("kind", f[3]).put("node", f[1]).put("gpu", Math.max(0, (int) f[2]));
      HttpResponse<String> r = bulwark.send("POST", bulwark.simUrl("/sim/faults"), fault.encode());
      assertThat(r.statusCode()).as("inject %s", fault).isEqualTo(201);
      faultIds.put((String) f[3], new JsonObject(r.body()).getString("id"));
    }
    // 60 s: a sustained 10% straggler and a node gone silent for 30 s take the longest.
    long deadline = injected + Duration.ofSeconds(60).toNanos();
    List<Object[]> missing = FAULTS;
    Map<String, Double> foundAfter = new java.util.TreeMap<>();
    while (System.nanoTime() < deadline) {
      JsonArray open = openFindings();
      double now = (System.nanoTime() - injected) / 1e9;
      for (Object[] f : FAULTS) {
        if (hasFinding(open, (String) f[0], (String) f[1], (int) f[2])) {
          foundAfter.putIfAbsent((String) f[3], now);
        }
      }
      missing =
          FAULTS.stream()
              .filter(f -> !hasFinding(open, (String) f[0], (String) f[1], (int) f[2]))
              .toList();
      if (missing.isEmpty()) {
        break;
      }
      Thread.sleep(500);
    }
    double seconds = (System.nanoTime() - injected) / 1e9;
    assertThat(missing)
        .as("faults without an open finding %.0f s after injection", seconds)
        .extracting(f -> f[0] + "@" + f[1] + "/" + f[2])
        .isEmpty();
    System.out.printf(
        "all %d fault kinds were open findings %.1f s after injection%n", FAULTS.size(), seconds);
    foundAfter.forEach((kind, at) -> System.out.printf("  %s: %.1f s%n", kind, at));

    JsonArray open = openFindings();
    assertThat(open.stream().map(o -> ((JsonObject) o).getString("node")))
        .as("no finding on a healthy node")
        .allMatch(n -> FAULTS.stream().anyMatch(f -> f[1].equals(n)));
    JsonObject capacity = new JsonObject(bulwark.get("/api/v1/capacity").body());
    assertThat(capacity.getInteger("gpusServing"))
        .as("xid 79, DBE, row-remap and missing GPUs are lost")
        .isLessThanOrEqualTo(512 - 4);
    assertThat(capacity.getDouble("effectiveCapacity"))
        .isLessThan(capacity.getInteger("gpusServing") / 512.0);
    assertThat(
            capacity.getInteger("gpusHealthy")
                + capacity.getInteger("gpusDegraded")
                + capacity.getInteger("gpusFailed")
                + capacity.getInteger("gpusUnknown"))
        .as("healthy, degraded, failed and unknown add up to the GPUs installed")
        .isEqualTo(512);
    // The silent node's 8 GPUs are unknown: never counted healthy, nor failed.
    assertThat(capacity.getInteger("gpusUnknown")).isEqualTo(8);
    assertThat(capacity.getString("summary"))
        .matches("\\d+ of 512 GPUs serving at \\d+% = \\d+% effective; 8 GPUs unknown");

    JsonObject node = new JsonObject(bulwark.get("/api/v1/nodes/gpu-node-006").body());
    assertThat(node.encode()).contains("thermal-throttle");
  }

  @Test
  @Order(3)
  void findingsResolveAfterTheFaultsClear() throws Exception {
    for (String id : faultIds.values()) {
      assertThat(bulwark.send("DELETE", bulwark.simUrl("/sim/faults/" + id), null).statusCode())
          .isEqualTo(204);
    }
    long cleared = System.nanoTime();
    awaitJson("/api/v1/findings?state=open", null, Duration.ofSeconds(60));
    // Rates over a 60-s window (NVLink errors) fall below their threshold within it; the XID is
    // held 30 s; every finding then waits out 10 s of hysteresis.
    long deadline = cleared + Duration.ofSeconds(90).toNanos();
    while (!openFindings().isEmpty() && System.nanoTime() < deadline) {
      Thread.sleep(500);
    }
    assertThat(openFindings()).as("open findings 90 s after the faults cleared").isEmpty();
    System.out.printf(
        "all findings resolved %.1f s after the faults cleared%n",
        (System.nanoTime() - cleared) / 1e9);
    JsonArray resolved = findings("/api/v1/findings?state=resolved");
    for (Object[] f : FAULTS) {
      assertThat(hasFinding(resolved, (String) f[0], (String) f[1], (int) f[2]))
          .as("resolved %s on %s GPU %s", f[0], f[1], f[2])
          .isTrue();
    }
  }

  @Test
  @Order(4)
  void badQueriesGetProblemDetails() throws Exception {
    HttpResponse<String> r = bulwark.get("/api/v1/findings?state=sideways");
    assertThat(r.statusCode()).isEqualTo(400);
    assertThat(r.headers().firstValue("content-type"))
        .hasValueSatisfying(v -> assertThat(v).startsWith("application/problem+json"));
    assertThat(new JsonObject(r.body()).getInteger("status")).isEqualTo(400);
    assertThat(bulwark.get("/api/v1/nodes/no-such-node").statusCode()).isEqualTo(404);
  }

  /** How many times each detector has judged, by name, as /metrics says. */
  private static Map<String, Long> judgements() throws Exception {
    HttpResponse<String> r = bulwark.get("/metrics");
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    Map<String, Long> counts = new java.util.TreeMap<>();
    java.util.regex.Matcher m =
        java.util.regex.Pattern.compile(
                "(?m)^bulwark_engine_detector_judgements_(\\w+)(?:\\{[^}]*})? ([0-9.eE+]+)$")
            .matcher(r.body());
    while (m.find()) {
      counts.put(m.group(1), (long) Double.parseDouble(m.group(2)));
    }
    return counts;
  }

  private static boolean allJudgedAgain(Map<String, Long> before, Map<String, Long> now) {
    return before.keySet().stream().allMatch(d -> now(now, d) > before.get(d));
  }

  private static long now(Map<String, Long> counts, String detector) {
    return counts.getOrDefault(detector, 0L);
  }

  /**
   * The open findings on the fleet's nodes. The appliance's findings about itself (node {@code
   * bulwark-appliance}: its telemetry shedding load while the end-to-end tests beside it and their
   * QEMU machines saturate the two cores) say nothing of the fleet, and are left out.
   */
  private static JsonArray openFindings() throws Exception {
    JsonArray fleet = new JsonArray();
    findings("/api/v1/findings?state=open").stream()
        .map(JsonObject.class::cast)
        .filter(f -> !"bulwark-appliance".equals(f.getString("node")))
        .forEach(fleet::add);
    return fleet;
  }

  private static JsonArray findings(String path) throws Exception {
    HttpResponse<String> r = bulwark.get(path);
    assertThat(r.statusCode()).as("GET %s: %s", path, r.body()).isEqualTo(200);
    Object body = io.vertx.core.json.Json.decodeValue(r.body());
    return body instanceof JsonArray a ? a : ((JsonObject) body).getJsonArray("findings");
  }

  private static boolean hasFinding(JsonArray findings, String kind, String node, int gpu) {
    return findings.stream()
        .map(JsonObject.class::cast)
        .anyMatch(
            f ->
                kind.equals(f.getString("kind"))
                    && node.equals(f.getString("node"))
                    && gpu == f.getInteger("gpu"));
  }

  private static void awaitJson(
      String path, java.util.function.Predicate<JsonObject> ok, Duration timeout) throws Exception {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      HttpResponse<String> r = bulwark.get(path);
      Runs.assertAnswered(r, path);
      if (r.statusCode() == 200 && (ok == null || ok.test(new JsonObject(r.body())))) {
        return;
      }
      Thread.sleep(500);
    }
    throw new AssertionError("GET " + path + " did not become ready within " + timeout);
  }
}
