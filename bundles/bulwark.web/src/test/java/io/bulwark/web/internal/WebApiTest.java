package io.bulwark.web.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.bulwark.api.fleet.NodeId;
import io.bulwark.api.health.CapacityReport;
import io.bulwark.api.health.GpuCapacity;
import io.bulwark.api.health.Severity;
import io.bulwark.api.telemetry.DcgmField;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The JSON API over HTTP, against the component as DS would build it, with the fleet of {@link
 * FleetFixture}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class WebApiTest {
  private final FleetFixture fixture = new FleetFixture();
  private Vertx vertx;
  private WebServer server;
  private ApiClient api;

  @BeforeAll
  void start() {
    vertx = Vertx.vertx();
    server = fixture.start(vertx, Listener.plainHttp(new WebOptions("127.0.0.1", 0)));
    api = new ApiClient(server.port());
  }

  @AfterAll
  void stop() {
    server.stop();
    vertx.close().toCompletionStage().toCompletableFuture().join();
  }

  @AfterEach
  void healthy() {
    fixture.health.failWith(null);
  }

  @Test
  void nodesListHealthFindingsAndGpus() {
    JsonObject body = api.json("/api/v1/nodes");

    assertThat(body.getInteger("count")).isEqualTo(2);
    JsonObject a01 = body.getJsonArray("nodes").getJsonObject(0);
    assertThat(a01.getString("id")).isEqualTo("gpu-a01");
    assertThat(a01.getInteger("gpusInstalled")).isEqualTo(4);
    assertThat(a01.getInteger("gpusReporting")).isEqualTo(3);
    assertThat(a01.getInteger("openFindings")).isEqualTo(2);
    assertThat(a01.getString("worstSeverity")).isEqualTo("critical");
    assertThat(Instant.parse(a01.getString("lastScrape")).toEpochMilli())
        .isEqualTo(fixture.now - 2_000);
    assertThat(a01.getJsonArray("gpus").stream().map(g -> ((JsonObject) g).getString("health")))
        .containsExactly("healthy", "critical", "warning", "missing");
    assertThat(a01.getJsonArray("gpus").getJsonObject(2).getDouble("relativePerformance"))
        .isEqualTo(0.7);

    JsonObject a02 = body.getJsonArray("nodes").getJsonObject(1);
    assertThat(a02.getString("id")).isEqualTo("gpu-a02");
    assertThat(a02.getInteger("openFindings")).isZero();
    assertThat(a02.getValue("worstSeverity")).isNull();
    // GPU 1 serves at 90% in the account (degraded): never green beside a headline that says so.
    assertThat(a02.getJsonArray("gpus").stream().map(g -> ((JsonObject) g).getString("health")))
        .containsExactly("healthy", "warning");
    assertThat(a01.getJsonArray("gpus").stream().map(g -> ((JsonObject) g).getString("state")))
        .containsExactly("healthy", "failed", "degraded", "failed");
  }

  @Test
  void aNodeWideCriticalFindingColoursEveryGpuAsTheAccountCountsIt() {
    // A BMC event-log failure is a finding on the whole node: the account fails all its GPUs.
    fixture.health.add(
        FleetFixture.finding(
            "f-sel",
            "bmc-sel-hardware",
            NodeId.of("gpu-a02"),
            -1,
            Severity.CRITICAL,
            Instant.ofEpochMilli(fixture.now - 60_000),
            Instant.ofEpochMilli(fixture.now - 1_000),
            null,
            "Uncorrectable memory ECC in the BMC event log",
            "Replace the DIMM."));
    fixture.health.capacity(
        CapacityReport.of(
            Instant.ofEpochMilli(fixture.now),
            List.of(
                new GpuCapacity(NodeId.of("gpu-a01"), 0, true, 1.0, ""),
                new GpuCapacity(NodeId.of("gpu-a01"), 1, false, 0.0, "xid"),
                new GpuCapacity(NodeId.of("gpu-a01"), 2, true, 0.7, "thermal-throttle"),
                new GpuCapacity(NodeId.of("gpu-a01"), 3, false, 0.0, "gpu-missing"),
                new GpuCapacity(NodeId.of("gpu-a02"), 0, false, 0.0, "bmc-sel-hardware"),
                new GpuCapacity(NodeId.of("gpu-a02"), 1, false, 0.0, "bmc-sel-hardware"))));

    JsonObject nodes = api.json("/api/v1/nodes");
    JsonObject capacity = api.json("/api/v1/capacity");

    JsonObject a02 = nodes.getJsonArray("nodes").getJsonObject(1);
    assertThat(a02.getJsonArray("gpus").stream().map(g -> ((JsonObject) g).getString("health")))
        .containsExactly("critical", "critical");
    // Every GPU: the same state in the node list as in the account, and a colour that follows.
    java.util.Map<String, String> accountStates = new java.util.HashMap<>();
    for (Object o : capacity.getJsonArray("gpus")) {
      JsonObject g = (JsonObject) o;
      String state =
          g.getBoolean("unknown")
              ? "unknown"
              : !g.getBoolean("healthy")
                  ? "failed"
                  : g.getDouble("relativePerformance") < 1 ? "degraded" : "healthy";
      accountStates.put(g.getString("node") + "/" + g.getInteger("gpu"), state);
    }
    int failedCells = 0;
    for (Object n : nodes.getJsonArray("nodes")) {
      for (Object o : ((JsonObject) n).getJsonArray("gpus")) {
        JsonObject g = (JsonObject) o;
        String key = ((JsonObject) n).getString("id") + "/" + g.getInteger("index");
        assertThat(g.getString("state")).as(key).isEqualTo(accountStates.get(key));
        String health = g.getString("health");
        switch (g.getString("state")) {
          case "failed" -> assertThat(health).as(key).isIn("critical", "missing");
          case "unknown" -> assertThat(health).as(key).isEqualTo("unknown");
          case "degraded" -> assertThat(health).as(key).isEqualTo("warning");
          default -> assertThat(health).as(key).isIn("healthy", "warning");
        }
        if (g.getString("state").equals("failed")) {
          failedCells++;
        }
      }
    }
    assertThat(failedCells).isEqualTo(capacity.getInteger("gpusFailed")).isEqualTo(4);
  }

  @Test
  void nodeDetailHasGpusTelemetryInTheWindowAndFindings() {
    JsonObject body = api.json("/api/v1/nodes/gpu-a01");

    assertThat(body.getJsonObject("node").getString("id")).isEqualTo("gpu-a01");
    assertThat(body.getJsonObject("window").getInteger("minutes")).isEqualTo(10);
    JsonArray gpus = body.getJsonArray("gpus");
    assertThat(gpus).hasSize(4);
    JsonObject gpu2 = gpus.getJsonObject(2);
    assertThat(gpu2.getString("uuid")).isEqualTo("GPU-00000002");
    assertThat(gpu2.getString("model")).isEqualTo(FleetFixture.MODEL);
    assertThat(gpu2.getString("health")).isEqualTo("warning");
    JsonObject telemetry = gpu2.getJsonObject("telemetry");
    assertThat(telemetry.fieldNames())
        .containsExactlyInAnyOrder(
            DcgmField.GPU_UTIL,
            DcgmField.GPU_TEMP,
            DcgmField.MEMORY_TEMP,
            DcgmField.SM_CLOCK,
            DcgmField.POWER_USAGE,
            DcgmField.FB_USED);
    JsonArray temps = telemetry.getJsonArray(DcgmField.GPU_TEMP);
    assertThat(temps).hasSize(60);
    JsonArray first = temps.getJsonArray(0);
    assertThat(first.getLong(0)).isEqualTo(fixture.now - 300_000);
    assertThat(first.getDouble(1)).isEqualTo(80.0);
    assertThat(telemetry.getJsonArray(DcgmField.SM_CLOCK).getJsonArray(59).getDouble(1))
        .isEqualTo(1200.0);
    assertThat(gpus.getJsonObject(3).getString("health")).isEqualTo("missing");
    assertThat(gpus.getJsonObject(3).getJsonObject("telemetry").getJsonArray(DcgmField.GPU_TEMP))
        .isEmpty();

    assertThat(body.getJsonArray("findings").stream().map(f -> ((JsonObject) f).getString("id")))
        .containsExactlyInAnyOrder("f-xid", "f-thermal");
  }

  @Test
  void nodeDetailWindowFollowsMinutes() {
    JsonObject body = api.json("/api/v1/nodes/gpu-a01?minutes=30");

    JsonArray temps =
        body.getJsonArray("gpus")
            .getJsonObject(0)
            .getJsonObject("telemetry")
            .getJsonArray(DcgmField.GPU_TEMP);
    assertThat(temps).hasSize(61);
    assertThat(temps.getJsonArray(0).getDouble(1)).isEqualTo(40.0);
  }

  @Test
  void nodeDetailListsResolvedFindingsToo() {
    JsonObject body = api.json("/api/v1/nodes/gpu-a02");

    JsonObject finding = body.getJsonArray("findings").getJsonObject(0);
    assertThat(finding.getString("id")).isEqualTo("f-old");
    assertThat(finding.getString("state")).isEqualTo("resolved");
    assertThat(finding.getString("resolvedAt")).isEqualTo(fixture.resolved.resolvedAt().toString());
  }

  @Test
  void findingsFilterByStateKindNodeAndLimit() {
    assertThat(ids(api.json("/api/v1/findings"))).containsExactly("f-xid", "f-thermal", "f-old");
    assertThat(ids(api.json("/api/v1/findings?state=open"))).containsExactly("f-xid", "f-thermal");
    assertThat(ids(api.json("/api/v1/findings?state=resolved"))).containsExactly("f-old");
    assertThat(ids(api.json("/api/v1/findings?state=all")))
        .containsExactly("f-xid", "f-thermal", "f-old");
    assertThat(ids(api.json("/api/v1/findings?state=open&kind=thermal-throttle")))
        .containsExactly("f-thermal");
    assertThat(ids(api.json("/api/v1/findings?state=all&node=gpu-a02"))).containsExactly("f-old");
    JsonObject limited = api.json("/api/v1/findings?state=all&limit=1");
    assertThat(ids(limited)).containsExactly("f-xid");
    assertThat(limited.getInteger("limit")).isEqualTo(1);
  }

  @Test
  void findingJsonCarriesEverythingTheTableShows() {
    JsonObject f = api.json("/api/v1/findings?kind=xid").getJsonArray("findings").getJsonObject(0);

    assertThat(f.getString("kind")).isEqualTo("xid");
    assertThat(f.getString("node")).isEqualTo("gpu-a01");
    assertThat(f.getInteger("gpu")).isEqualTo(1);
    assertThat(f.getString("severity")).isEqualTo("critical");
    assertThat(f.getString("state")).isEqualTo("open");
    assertThat(f.getString("firstSeen")).isEqualTo(fixture.xid.firstSeen().toString());
    assertThat(f.getValue("resolvedAt")).isNull();
    assertThat(f.getString("summary")).isEqualTo(fixture.xid.summary());
    assertThat(f.getString("recommendedAction")).isEqualTo(fixture.xid.recommendedAction());
    assertThat(f.getJsonObject("evidence").getString("observed")).isEqualTo("91");
    assertThat(f.getLong("occurrences")).isEqualTo(12);
  }

  @Test
  void capacityHasSummaryAndPerGpuList() {
    JsonObject body = api.json("/api/v1/capacity");

    assertThat(body.getString("summary")).isEqualTo("4 of 6 GPUs serving at 90% = 60% effective");
    assertThat(body.getInteger("gpusInstalled")).isEqualTo(6);
    assertThat(body.getInteger("gpusServing")).isEqualTo(4);
    // Healthy, degraded, failed and unknown do not overlap and add up to the GPUs installed.
    assertThat(body.getInteger("gpusHealthy")).isEqualTo(2);
    assertThat(body.getInteger("gpusDegraded")).isEqualTo(2);
    assertThat(body.getInteger("gpusFailed")).isEqualTo(2);
    assertThat(body.getInteger("gpusUnknown")).isZero();
    assertThat(body.getInteger("targetsNotAnswering")).isEqualTo(1);
    assertThat(body.getString("headline"))
        .isEqualTo("4 of 6 GPUs serving at 90% = 60% effective; 1 target not answering");
    assertThat(body.getDouble("effectiveCapacity"))
        .isCloseTo(0.6, org.assertj.core.data.Offset.offset(1e-9));
    JsonObject gpu = body.getJsonArray("gpus").getJsonObject(1);
    assertThat(gpu.getString("node")).isEqualTo("gpu-a01");
    assertThat(gpu.getInteger("gpu")).isEqualTo(1);
    assertThat(gpu.getBoolean("healthy")).isFalse();
  }

  @Test
  void coverageGroupsTheNodesWhoseExportersLackADetectorsFields() {
    List<io.bulwark.api.health.NodeCoverage> nodes = new java.util.ArrayList<>();
    io.bulwark.api.health.CoverageGap noSmActive =
        new io.bulwark.api.health.CoverageGap(
            "straggler",
            List.of(
                io.bulwark.api.health.DetectorInput.anyOf(
                    "DCGM_FI_PROF_SM_ACTIVE", "DCGM_FI_DEV_GPU_UTIL")));
    for (int n = 0; n < 12; n++) {
      nodes.add(
          new io.bulwark.api.health.NodeCoverage(
              io.bulwark.api.fleet.NodeId.of(String.format("gpu-b%02d", n)),
              8,
              n < 11 ? List.of(noSmActive) : List.of()));
    }
    fixture.health.coverage(nodes);

    JsonObject body = api.json("/api/v1/telemetry/coverage");

    assertThat(body.getInteger("nodesReporting")).isEqualTo(12);
    assertThat(body.getInteger("nodesComplete")).isEqualTo(1);
    assertThat(body.getInteger("gpusPartlyCovered")).isEqualTo(88);
    JsonObject gap = body.getJsonArray("gaps").getJsonObject(0);
    assertThat(body.getJsonArray("gaps")).hasSize(1);
    assertThat(gap.getString("detector")).isEqualTo("straggler");
    assertThat(gap.getJsonArray("missing").getString(0))
        .isEqualTo("DCGM_FI_PROF_SM_ACTIVE (or DCGM_FI_DEV_GPU_UTIL)");
    assertThat(gap.getInteger("nodes")).isEqualTo(11);
    assertThat(gap.getJsonArray("sampleNodes")).hasSize(CoverageResource.SAMPLE_NODES);
    assertThat(api.json("/api/v1/capacity").getString("headline"))
        .endsWith("; 88 GPUs partly seen (fields missing)");
  }

  @Test
  void capacityShowsLostGpuHoursByCauseDayByDayAndInMoney() {
    java.time.Instant hour =
        java.time.Instant.now().truncatedTo(java.time.temporal.ChronoUnit.HOURS);
    java.time.Instant yesterday = hour.minus(java.time.Duration.ofDays(1));
    for (java.time.Instant h : List.of(hour.minus(java.time.Duration.ofHours(2)), yesterday)) {
      fixture.health.history(
          new io.bulwark.api.health.CapacityInterval(
              h,
              h.plus(java.time.Duration.ofHours(1)),
              1_800_000,
              3.0,
              2.0,
              java.util.Map.of(
                  io.bulwark.api.health.LossCause.FAILURE, 0.6,
                  io.bulwark.api.health.LossCause.THROTTLE, 0.3,
                  io.bulwark.api.health.LossCause.STRAGGLER, 0.1)));
    }

    JsonObject body = api.json("/api/v1/capacity?days=3");

    assertThat(body.getInteger("gpusDegraded")).isEqualTo(2);
    assertThat(body.getInteger("gpusFailed")).isEqualTo(2);
    JsonObject lastDay = body.getJsonObject("lastDay");
    assertThat(lastDay.getDouble("observedHours")).isEqualTo(1.0);
    assertThat(lastDay.getJsonObject("gpuHoursLost").getDouble("failure")).isEqualTo(1.2);
    assertThat(lastDay.getJsonObject("gpuHoursLostPerDay").getDouble("total"))
        .isCloseTo(48.0, org.assertj.core.data.Offset.offset(1e-9));
    assertThat(lastDay.getDouble("moneyLost"))
        .isCloseTo(5.0, org.assertj.core.data.Offset.offset(1e-9));
    assertThat(body.getJsonArray("days")).hasSize(3);
    double total = 0;
    for (Object day : body.getJsonArray("days")) {
      total += ((JsonObject) day).getJsonObject("gpuHoursLost").getDouble("total");
    }
    assertThat(total).isCloseTo(2.0, org.assertj.core.data.Offset.offset(1e-9));
    assertThat(body.getJsonObject("gpuHourPrice").getString("currency")).isEqualTo("USD");
    assertProblem(api.get("/api/v1/capacity?days=0"), 400, null);
  }

  @Test
  void targetsShowHowEachScrapeWent() {
    JsonObject body = api.json("/api/v1/telemetry/targets");

    assertThat(body.getInteger("count")).isEqualTo(2);
    assertThat(body.getLong("up")).isEqualTo(1);
    JsonObject up = body.getJsonArray("targets").getJsonObject(0);
    assertThat(up.getString("url")).isEqualTo("http://10.0.0.11:9400/metrics");
    assertThat(up.getString("health")).isEqualTo("up");
    assertThat(up.getString("node")).isEqualTo("gpu-a01");
    assertThat(up.getInteger("samples")).isEqualTo(812);
    assertThat(up.getJsonObject("labels").getString("rack")).isEqualTo("r1");
    assertThat(up.getString("naming")).isEqualTo("DCGM 4.x");
    assertThat(up.getInteger("blankValues")).isEqualTo(3);
    assertThat(up.getString("skipped")).startsWith("3 blank values (DCGM could not read the field");
    JsonObject down = body.getJsonArray("targets").getJsonObject(1);
    assertThat(down.getString("health")).isEqualTo("down");
    assertThat(down.getString("lastError")).isEqualTo("connection refused");
    assertThat(down.getString("naming")).isEmpty();
    assertThat(down.getInteger("blankValues")).isZero();
    assertThat(down.getValue("lastScrape")).isNull();
  }

  @Test
  void healthListsBundlesAndDetectors() {
    JsonObject body = api.json("/api/v1/health");

    assertThat(body.getString("status")).isEqualTo("UP");
    JsonObject security = body.getJsonObject("security");
    assertThat(security.getJsonObject("cryptoModule").getString("name"))
        .isEqualTo("BouncyCastle FIPS");
    assertThat(security.getJsonObject("cryptoModule").getBoolean("approvedOnly")).isTrue();
    assertThat(security.getBoolean("secretsSealedToTpm")).isFalse();
    assertThat(security.getBoolean("developmentMode")).isTrue();
    assertThat(body.getLong("uptimeSeconds")).isNotNegative();
    assertThat(body.getJsonArray("detectors").stream().map(String::valueOf))
        .containsExactly("xid", "thermal");
    JsonArray bundles = body.getJsonArray("bundles");
    assertThat(bundles).hasSize(3);
    JsonObject sim = bundles.getJsonObject(2);
    assertThat(sim.getString("symbolicName")).isEqualTo("bulwark.sim");
    assertThat(sim.getString("version")).isEqualTo("0.1.0.SNAPSHOT");
    assertThat(sim.getString("state")).isEqualTo("resolved");
    assertThat(bundles.getJsonObject(0).getString("state")).isEqualTo("active");
  }

  @Test
  void healthIsTheWorstOfTheSubsystemsAndSaysWhatToDo() {
    fixture.store.set(
        "store",
        io.bulwark.api.system.SubsystemState.DOWN,
        "refuses routine writes: the disk has 80 MiB free",
        "Free space on the disk",
        java.util.Map.of("bulwark_store_disk_free_bytes", 8.0e7));
    try {
      JsonObject body = api.json("/api/v1/health");
      assertThat(body.getString("status")).isEqualTo("DOWN");
      JsonObject store =
          body.getJsonArray("subsystems").stream()
              .map(JsonObject.class::cast)
              .filter(s -> s.getString("subsystem").equals("store"))
              .findFirst()
              .orElseThrow();
      assertThat(store.getString("state")).isEqualTo("DOWN");
      assertThat(store.getString("summary")).contains("80 MiB free");
      assertThat(store.getString("action")).isEqualTo("Free space on the disk");
      assertThat(store.getJsonObject("measurements").getDouble("bulwark_store_disk_free_bytes"))
          .isEqualTo(8.0e7);

      HttpResponse<String> metrics = api.get("/metrics");
      assertThat(metrics.statusCode()).isEqualTo(200);
      assertThat(metrics.headers().firstValue("content-type"))
          .hasValueSatisfying(t -> assertThat(t).startsWith("text/plain; version=0.0.4"));
      assertThat(metrics.body().lines())
          .contains(
              "bulwark_up 0",
              "bulwark_subsystem_state{subsystem=\"store\"} 2",
              "bulwark_subsystem_state{subsystem=\"audit\"} 0",
              "bulwark_store_disk_free_bytes 80000000");
    } finally {
      fixture.store.set(
          "store", io.bulwark.api.system.SubsystemState.UP, "works", "", java.util.Map.of());
    }
    assertThat(api.json("/api/v1/health").getString("status")).isEqualTo("UP");
    assertThat(api.get("/metrics").body().lines()).contains("bulwark_up 1");
  }

  @Test
  void metricsNeedCredentials() {
    assertThat(new ApiClient(server.port(), null).get("/metrics").statusCode()).isEqualTo(401);
  }

  @Test
  void badQueryValuesAreProblems() {
    assertProblem(api.get("/api/v1/findings?state=closed"), 400, "state");
    assertProblem(api.get("/api/v1/findings?limit=0"), 400, "limit");
    assertProblem(api.get("/api/v1/findings?limit=lots"), 400, "limit");
    assertProblem(api.get("/api/v1/findings?limit=10001"), 400, "limit");
    assertProblem(api.get("/api/v1/findings?kind=Not_A_Kind"), 400, "kind");
    assertProblem(api.get("/api/v1/findings?node=bad%20name"), 400, "node");
    assertProblem(api.get("/api/v1/findings?state=open&state=resolved"), 400, "state");
    assertProblem(api.get("/api/v1/nodes/gpu-a01?minutes=abc"), 400, "minutes");
    assertProblem(api.get("/api/v1/nodes/gpu-a01?minutes=0"), 400, "minutes");
    assertProblem(api.get("/api/v1/nodes/bad%20name"), 400, "node");
    assertProblem(api.get("/api/v1/nodes/-leading-dash"), 400, "node");
  }

  @Test
  void unknownNodeAndUnknownRoutesAre404() {
    JsonObject problem = assertProblem(api.get("/api/v1/nodes/gpu-z99"), 404, null);
    assertThat(problem.getString("detail")).contains("gpu-z99");
    assertProblem(api.get("/api/v1/nope"), 404, null);
    assertProblem(api.get("/api"), 404, null);
    assertProblem(api.get("/api/v2/nodes"), 404, null);
    assertProblem(api.send("POST", "/api/v1/nope"), 404, null);
  }

  @Test
  void wrongMethodIs405WithAllow() {
    HttpResponse<String> response = api.send("DELETE", "/api/v1/nodes");
    JsonObject problem = assertProblem(response, 405, null);
    assertThat(response.headers().firstValue("Allow")).contains("GET, HEAD");
    assertThat(problem.getString("detail"))
        .isEqualTo("DELETE is not allowed on /api/v1/nodes; use GET or HEAD.");
    assertProblem(api.send("POST", "/api/v1/findings"), 405, null);
    HttpResponse<String> tokens = api.send("PUT", "/api/v1/tokens");
    assertThat(tokens.headers().firstValue("Allow")).contains("GET, HEAD, POST");
    HttpResponse<String> node = api.send("PUT", "/api/v1/nodes/gpu-a01");
    assertThat(node.headers().firstValue("Allow")).contains("DELETE, GET, HEAD");
  }

  @Test
  void internalErrorsHideTheCause() {
    fixture.health.failWith(new IllegalStateException("store file /var/lib/bulwark/db corrupt"));

    HttpResponse<String> response = api.get("/api/v1/capacity");

    JsonObject problem = assertProblem(response, 500, null);
    assertThat(problem.getString("detail")).contains("incident");
    assertThat(response.body()).doesNotContain("corrupt", "IllegalStateException", "at io.");
  }

  @Test
  void everyResponseCarriesTheSecurityHeaders() {
    HttpResponse<String> response = api.get("/api/v1/capacity");

    assertThat(response.headers().firstValue("Content-Security-Policy").orElse(""))
        .contains("script-src 'self'", "style-src 'self'");
    assertThat(response.headers().firstValue("X-Content-Type-Options")).contains("nosniff");
    assertThat(response.headers().firstValue("Cache-Control")).contains("no-store");
  }

  @Test
  void portAndUrlAreTheBoundOnes() {
    assertThat(server.port()).isPositive();
    assertThat(server.url()).isEqualTo("http://127.0.0.1:" + server.port() + "/");
  }

  private static List<String> ids(JsonObject body) {
    return body.getJsonArray("findings").stream()
        .map(f -> ((JsonObject) f).getString("id"))
        .toList();
  }

  static JsonObject assertProblem(HttpResponse<String> response, int status, String parameter) {
    assertThat(response.statusCode())
        .as(response.uri() + " -> " + response.body())
        .isEqualTo(status);
    assertThat(response.headers().firstValue("Content-Type")).contains("application/problem+json");
    JsonObject problem = new JsonObject(response.body());
    assertThat(problem.getInteger("status")).isEqualTo(status);
    assertThat(problem.getString("type")).startsWith("urn:bulwark:problem:");
    assertThat(problem.getString("title")).isNotBlank();
    assertThat(problem.getString("detail")).isNotBlank();
    assertThat(problem.getString("instance")).isEqualTo(response.uri().getRawPath());
    if (parameter != null) {
      assertThat(problem.getString("parameter")).isEqualTo(parameter);
      assertThat(problem.getString("detail")).contains(parameter);
    }
    return problem;
  }

  @Test
  void readsAreGzippedForClientsThatAskAndSecretsNeverAre() throws Exception {
    java.net.http.HttpResponse<byte[]> nodes =
        api.http()
            .send(
                api.request("/api/v1/nodes").header("Accept-Encoding", "gzip").GET().build(),
                java.net.http.HttpResponse.BodyHandlers.ofByteArray());
    assertThat(nodes.statusCode()).isEqualTo(200);
    assertThat(nodes.headers().firstValue("Content-Encoding")).contains("gzip");
    String unzipped;
    try (var in =
        new java.util.zip.GZIPInputStream(new java.io.ByteArrayInputStream(nodes.body()))) {
      unzipped = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    }
    assertThat(new JsonObject(unzipped).getJsonArray("nodes")).isNotEmpty();
    assertThat(nodes.body().length).isLessThan(unzipped.length());

    // Without Accept-Encoding the same answer is plain.
    assertThat(api.get("/api/v1/nodes").headers().firstValue("Content-Encoding")).isEmpty();

    // The session (its CSRF token) and every change go uncompressed, whatever the client asks.
    java.net.http.HttpResponse<String> session =
        api.send(api.request("/api/v1/session").header("Accept-Encoding", "gzip").GET().build());
    assertThat(session.headers().firstValue("Content-Encoding").orElse("identity"))
        .isEqualTo("identity");
  }
}
