package io.bulwark.sim.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bulwark.api.telemetry.DcgmField;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FleetSimulatorTest {
  static Vertx vertx;
  static final HttpClient HTTP =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(5))
          .build();

  @TempDir Path dir;
  private final TestClock clock = new TestClock(SimulatedFleetTest.NOW);
  private FleetSimulator simulator;

  @BeforeAll
  static void startVertx() {
    vertx = Vertx.vertx();
  }

  @AfterAll
  static void closeVertx() throws Exception {
    vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  @AfterEach
  void stopSimulator() {
    if (simulator != null) {
      simulator.stop();
    }
  }

  @Test
  void writesTheTargetsOnceBoundAndEveryTargetServesItsNodesPage() throws Exception {
    start(Scenario.NONE);

    JsonArray targets = new JsonArray(Files.readString(dir.resolve("sd/targets.json")));
    assertThat(targets).hasSize(16);
    for (Object entry : targets) {
      JsonObject target = (JsonObject) entry;
      String node = target.getJsonObject("labels").getString("node");
      assertThat(target.getJsonArray("targets")).containsExactly("127.0.0.1:" + simulator.port());
      assertThat(target.getJsonObject("labels").getString("__metrics_path__"))
          .isEqualTo("/nodes/" + node + "/metrics");

      HttpResponse<String> page =
          get(
              "http://"
                  + target.getJsonArray("targets").getString(0)
                  + target.getJsonObject("labels").getString("__metrics_path__"));
      assertThat(page.statusCode()).isEqualTo(200);
      assertThat(page.headers().firstValue("Content-Type")).contains(NodePages.TEXT_FORMAT);
      assertThat(PrometheusText.parse(page.body()).named(DcgmField.GPU_TEMP))
          .hasSize(4)
          .allMatch(s -> s.label("Hostname").equals(node));
    }
    assertThat(simulator.port()).isPositive().isNotEqualTo(9400);
  }

  @Test
  void listsTheNodes() throws Exception {
    start(Scenario.NONE);

    HttpResponse<String> nodes = get(url("/sim/nodes"));

    assertThat(nodes.statusCode()).isEqualTo(200);
    assertThat(nodes.headers().firstValue("Content-Type")).contains("application/json");
    assertThat(new JsonArray(nodes.body()))
        .hasSize(16)
        .startsWith("gpu-node-001")
        .endsWith("gpu-node-016");
  }

  @Test
  void addsListsReadsAndDeletesAFault() throws Exception {
    start(Scenario.NONE);
    assertThat(new JsonArray(get(url("/sim/faults")).body())).isEmpty();

    HttpResponse<String> created =
        post("{\"node\":\"gpu-node-007\",\"gpu\":3,\"kind\":\"xid\",\"xid\":48}");

    assertThat(created.statusCode()).isEqualTo(201);
    JsonObject fault = new JsonObject(created.body());
    String id = fault.getString("id");
    assertThat(created.headers().firstValue("Location")).contains("/sim/faults/" + id);
    assertThat(fault.getString("node")).isEqualTo("gpu-node-007");
    assertThat(fault.getInteger("gpu")).isEqualTo(3);
    assertThat(fault.getString("kind")).isEqualTo("xid");
    assertThat(fault.getInteger("xid")).isEqualTo(48);
    assertThat(fault.getString("start")).isEqualTo(Instant.ofEpochMilli(clock.millis()).toString());
    assertThat(fault.containsKey("durationSeconds")).isFalse();
    assertThat(new JsonArray(get(url("/sim/faults")).body())).containsExactly(fault);
    assertThat(new JsonObject(get(url("/sim/faults/" + id)).body())).isEqualTo(fault);
    assertThat(xidOnGpu3()).isEqualTo(48.0);

    assertThat(delete(id).statusCode()).isEqualTo(204);

    assertThat(xidOnGpu3()).isZero();
    assertThat(new JsonArray(get(url("/sim/faults")).body())).isEmpty();
    HttpResponse<String> again = delete(id);
    assertProblem(again, 404, "Unknown fault");
    assertProblem(get(url("/sim/faults/" + id)), 404, "Unknown fault");
  }

  @Test
  void aFaultWithADurationClearsByItself() throws Exception {
    start(Scenario.NONE);
    JsonObject fault =
        new JsonObject(
            post("{\"node\":\"gpu-node-007\",\"gpu\":3,\"kind\":\"thermal-throttle\",\"durationSeconds\":120,"
                    + "\"xid\":79}")
                .body());
    assertThat(fault.getLong("durationSeconds")).isEqualTo(120);
    assertThat(fault.containsKey("xid")).isFalse();
    assertThat(gpu3(DcgmField.GPU_TEMP)).isGreaterThan(85);

    clock.advance(Duration.ofSeconds(120));

    assertThat(new JsonArray(get(url("/sim/faults")).body())).isEmpty();
    assertThat(gpu3(DcgmField.GPU_TEMP)).isLessThan(80);
    assertThat(gpu3(DcgmField.CLOCKS_EVENT_REASONS)).isZero();
  }

  @Test
  void answersBadFaultRequestsWithProblemDocuments() throws Exception {
    start(Scenario.NONE);

    assertProblem(post("{not json"), 400, "Invalid fault");
    assertProblem(
        post("{\"node\":\"gpu-node-099\",\"gpu\":0,\"kind\":\"xid\"}"), 400, "Invalid fault");
    assertProblem(
        post("{\"node\":\"gpu-node-001\",\"gpu\":0,\"kind\":\"melted\"}"), 400, "Invalid fault");
    assertProblem(
        post("{\"node\":\"gpu-node-001\",\"gpu\":4,\"kind\":\"xid\"}"), 400, "Invalid fault");
    assertProblem(
        post(
            "{\"node\":\"gpu-node-001\",\"gpu\":0,\"kind\":\"xid\",\"pad\":\""
                + "x".repeat(20_000)
                + "\"}"),
        413,
        "Request body too large");
    assertThat(new JsonArray(get(url("/sim/faults")).body())).isEmpty();
  }

  @Test
  void answersUnknownNodesPathsAndMethodsWithProblemDocuments() throws Exception {
    start(Scenario.NONE);

    assertProblem(get(url("/nodes/gpu-node-099/metrics")), 404, "Unknown node");
    assertProblem(get(url("/metrics")), 404, "Not found");
    HttpResponse<String> put =
        HTTP.send(
            HttpRequest.newBuilder(URI.create(url("/sim/faults")))
                .PUT(HttpRequest.BodyPublishers.ofString("{}"))
                .timeout(Duration.ofSeconds(5))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertProblem(put, 405, "Method not allowed");
  }

  @Test
  void theDemoScenarioRunsHealthyThenInjectsItsPersistentFaults() throws Exception {
    start(Scenario.DEMO);
    assertThat(new JsonArray(get(url("/sim/faults")).body()))
        .as("faults right after start")
        .isEmpty();

    long deadline = System.currentTimeMillis() + DemoScenario.FIRST_FAULTS_DELAY_MILLIS + 5_000;
    JsonArray faults = new JsonArray(get(url("/sim/faults")).body());
    while (faults.size() < 9 && System.currentTimeMillis() < deadline) {
      Thread.sleep(200);
      faults = new JsonArray(get(url("/sim/faults")).body());
    }

    assertThat(faults.stream().map(f -> ((JsonObject) f).getString("kind")))
        .containsExactlyInAnyOrder(
            "xid",
            "ecc-dbe",
            "row-remap-failure",
            "nvlink-errors",
            "pcie-downtrained",
            "thermal-throttle",
            "power-throttle",
            "straggler",
            "gpu-missing");
  }

  @Test
  void aStaleNodeClosesTheConnectionOrHangsAndAnswersAgainOnceDeleted() throws Exception {
    start(Scenario.NONE);
    String page = url("/nodes/gpu-node-007/metrics");
    JsonObject closing =
        new JsonObject(post("{\"node\":\"gpu-node-007\",\"kind\":\"telemetry-stale\"}").body());
    assertThat(closing.getString("mode")).isEqualTo("close");

    assertThatThrownBy(() -> get(page)).isInstanceOf(IOException.class);
    assertThat(get(url("/nodes/gpu-node-008/metrics")).statusCode()).isEqualTo(200);

    assertThat(delete(closing.getString("id")).statusCode()).isEqualTo(204);
    assertThat(get(page).statusCode()).isEqualTo(200);

    JsonObject hanging =
        new JsonObject(
            post("{\"node\":\"gpu-node-007\",\"kind\":\"telemetry-stale\",\"mode\":\"hang\"}")
                .body());
    HttpRequest scrape =
        HttpRequest.newBuilder(URI.create(page)).timeout(Duration.ofMillis(800)).build();
    assertThatThrownBy(() -> HTTP.send(scrape, HttpResponse.BodyHandlers.ofString()))
        .isInstanceOf(HttpTimeoutException.class);

    assertThat(delete(hanging.getString("id")).statusCode()).isEqualTo(204);
    assertThat(get(page).statusCode()).isEqualTo(200);
  }

  @Test
  void stoppingClosesTheListener() throws Exception {
    start(Scenario.NONE);
    int port = simulator.port();
    assertThat(get(url("/sim/nodes")).statusCode()).isEqualTo(200);

    simulator.stop();
    simulator = null;

    assertThatThrownBy(() -> new Socket(InetAddress.getByName("127.0.0.1"), port).close())
        .isInstanceOf(ConnectException.class);
  }

  @Test
  void aTakenPortFailsActivationNamingItAndWritesNoTargets() throws Exception {
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
      assertThatThrownBy(
              () ->
                  new FleetSimulator(
                      vertx, options(Scenario.NONE, taken.getLocalPort(), true), clock))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("127.0.0.1:" + taken.getLocalPort());
    }
    assertThat(dir.resolve("sd/targets.json")).doesNotExist();
  }

  @Test
  void whenDisabledItServesNothingAndWritesNothing() {
    simulator = new FleetSimulator(vertx, options(Scenario.DEMO, 0, false), clock);

    assertThat(simulator.port()).isEqualTo(-1);
    assertThat(simulator.faults()).isNull();
    assertThat(dir.resolve("sd")).doesNotExist();
  }

  @Test
  void activatesFromTheConfigurationAnnotation() throws Exception {
    simulator =
        new FleetSimulator(
            vertx,
            null,
            TestConfigs.simulator(
                Map.of(
                    "port",
                    0,
                    "nodes",
                    2,
                    "scenario",
                    "none",
                    "fileSd",
                    dir.resolve("t.json").toString())));

    assertThat(new JsonArray(get(url("/sim/nodes")).body()))
        .containsExactly("gpu-node-001", "gpu-node-002");
    assertThat(new JsonArray(Files.readString(dir.resolve("t.json")))).hasSize(2);
  }

  private void start(Scenario scenario) {
    simulator = new FleetSimulator(vertx, options(scenario, 0, true), clock);
  }

  private SimulatorOptions options(Scenario scenario, int port, boolean enabled) {
    return new SimulatorOptions(
        enabled,
        "127.0.0.1",
        port,
        dir.resolve("sd/targets.json"),
        16,
        4,
        "gpu-node-",
        scenario,
        42,
        0,
        FieldSet.COUNTERS);
  }

  private String url(String path) {
    return "http://127.0.0.1:" + simulator.port() + path;
  }

  private double xidOnGpu3() throws Exception {
    return gpu3(DcgmField.XID_ERRORS);
  }

  private double gpu3(String metric) throws Exception {
    HttpResponse<String> page = get(url("/nodes/gpu-node-007/metrics"));
    return PrometheusText.parse(page.body()).value(metric, 3);
  }

  private static void assertProblem(HttpResponse<String> response, int status, String title) {
    assertThat(response.statusCode()).isEqualTo(status);
    assertThat(response.headers().firstValue("Content-Type")).contains("application/problem+json");
    JsonObject problem = new JsonObject(response.body());
    assertThat(problem.getString("type")).startsWith("urn:bulwark:problem:");
    assertThat(problem.getString("title")).isEqualTo(title);
    assertThat(problem.getInteger("status")).isEqualTo(status);
    assertThat(problem.getString("detail")).isNotBlank();
  }

  private static HttpResponse<String> get(String url) throws IOException, InterruptedException {
    return HTTP.send(
        HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(5)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private HttpResponse<String> post(String body) throws IOException, InterruptedException {
    return HTTP.send(
        HttpRequest.newBuilder(URI.create(url("/sim/faults")))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .timeout(Duration.ofSeconds(5))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private HttpResponse<String> delete(String id) throws IOException, InterruptedException {
    return HTTP.send(
        HttpRequest.newBuilder(URI.create(url("/sim/faults/" + id)))
            .DELETE()
            .timeout(Duration.ofSeconds(5))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /** A clock the test moves by hand. */
  static final class TestClock extends Clock {
    private final AtomicLong millis;

    TestClock(long millis) {
      this.millis = new AtomicLong(millis);
    }

    void advance(Duration by) {
      millis.addAndGet(by.toMillis());
    }

    @Override
    public long millis() {
      return millis.get();
    }

    @Override
    public Instant instant() {
      return Instant.ofEpochMilli(millis());
    }

    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      return this;
    }
  }
}
