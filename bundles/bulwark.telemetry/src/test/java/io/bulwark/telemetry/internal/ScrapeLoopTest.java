package io.bulwark.telemetry.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.bulwark.api.fleet.NodeId;
import io.bulwark.api.telemetry.DcgmField;
import io.bulwark.api.telemetry.ScrapeTarget;
import io.bulwark.api.telemetry.SeriesId;
import io.bulwark.api.telemetry.TargetStatus;
import io.bulwark.api.telemetry.TargetStatus.Health;
import io.bulwark.testing.DcgmExporterPage;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class ScrapeLoopTest {
  private static final NodeId NODE = NodeId.of("gpu-node-007");
  private static final long TIMEOUT = 600;

  private Vertx vertx;
  private HttpServer server;
  private int port;
  private int closedPort;
  private final AtomicLong round = new AtomicLong();
  private final AtomicLong clock = new AtomicLong(1_700_000_000_000L);
  private final SeriesStore store = new SeriesStore(10);
  private ScrapeLoop loop;

  @BeforeEach
  void startExporters() throws Exception {
    vertx = Vertx.vertx();
    server = await(vertx.createHttpServer().requestHandler(this::serve).listen(0, "127.0.0.1"));
    port = server.actualPort();
    HttpClient warmUp = vertx.createHttpClient();
    await(
        warmUp
            .request(HttpMethod.GET, port, "127.0.0.1", "/metrics")
            .compose(HttpClientRequest::send)
            .compose(HttpClientResponse::body));
    await(warmUp.close());
    try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      closedPort = socket.getLocalPort();
    }
    loop =
        new ScrapeLoop(
            vertx,
            store,
            new TelemetryOptions(Path.of("unused.json"), 1000, TIMEOUT, 10),
            clock::get);
  }

  @AfterEach
  void stopExporters() throws Exception {
    loop.close();
    await(server.close());
    await(vertx.close());
  }

  private void serve(HttpServerRequest request) {
    switch (request.path()) {
      case "/metrics" ->
          request
              .response()
              .putHeader("Content-Type", "text/plain; version=0.0.4")
              .end(DcgmExporterPage.render("gpu-node-007", 8, round.get()));
      case "/error" ->
          request.response().setStatusCode(500).end("DCGM initialization failed\nmore detail\n");
      case "/garbage" -> request.response().end("<html><body><h1>It works!</h1></body></html>\n");
      case "/one-bad-line" ->
          request
              .response()
              .end(
                  DcgmExporterPage.render("gpu-node-008", 8, round.get())
                      + "DCGM_FI_DEV_GPU_TEMP{gpu=\"0\",Hostname=\"gpu-node-008\"} hot\n");
      case "/blanks" ->
          request
              .response()
              .end(
                  "# TYPE DCGM_FI_DEV_GPU_TEMP gauge\n"
                      + "DCGM_FI_DEV_GPU_TEMP_CELSIUS{gpu=\"0\",hostname=\"gpu-node-009\"} 41\n"
                      + "DCGM_FI_DEV_GPU_TEMP_CELSIUS{gpu=\"1\",hostname=\"gpu-node-009\"}"
                      + " 9223372036854775794\n");
      case "/huge" -> {
        request.response().setChunked(true);
        Buffer megabyte = Buffer.buffer("x".repeat(1 << 20));
        for (int i = 0; i < 17; i++) {
          request.response().write(megabyte);
        }
        request.response().end();
      }
      case "/slow" -> {}
      default -> request.response().setStatusCode(404).end("404 page not found\n");
    }
  }

  private ScrapeTarget target(int targetPort, String path) {
    return new ScrapeTarget("127.0.0.1:" + targetPort, "http", path, Map.of());
  }

  private List<TargetStatus> scrapeRound() throws Exception {
    round.incrementAndGet();
    clock.addAndGet(1000);
    return await(loop.scrapeAll());
  }

  private static <T> T await(Future<T> future) throws Exception {
    return future.toCompletionStage().toCompletableFuture().get(20, TimeUnit.SECONDS);
  }

  private TargetStatus statusOf(List<TargetStatus> statuses, String path) {
    return statusOf(statuses, target(port, path));
  }

  private static TargetStatus statusOf(List<TargetStatus> statuses, ScrapeTarget target) {
    return statuses.stream().filter(s -> s.target().equals(target)).findFirst().orElseThrow();
  }

  @Test
  void aGoodTargetIsScrapedWhileBrokenOnesReportWhyTheyAreDown() throws Exception {
    ScrapeTarget good = target(port, "/metrics");
    ScrapeTarget refused =
        new ScrapeTarget(
            "127.0.0.1:" + closedPort, "http", "/metrics", Map.of("node", "gpu-node-009"));
    loop.setTargets(
        List.of(
            good,
            target(port, "/error"),
            target(port, "/garbage"),
            refused,
            target(port, "/slow"),
            target(port, "/wrong-path")));

    List<TargetStatus> first = scrapeRound();
    List<TargetStatus> second = scrapeRound();

    assertThat(first).hasSize(6);
    TargetStatus up = statusOf(second, "/metrics");
    assertThat(up.health()).isEqualTo(Health.UP);
    assertThat(up.node()).isEqualTo("gpu-node-007");
    assertThat(up.samples()).isEqualTo(240);
    assertThat(up.lastError()).isEmpty();
    assertThat(up.lastScrape().toEpochMilli()).isEqualTo(clock.get());
    assertThat(store.window(SeriesId.of(NODE, 4, DcgmField.GPU_TEMP), 0).values())
        .containsExactly(DcgmExporterPage.value(3, 4, 1), DcgmExporterPage.value(3, 4, 2));
    assertThat(store.reportedGpus(NODE)).hasSize(8);
    assertThat(store.lastScrapeMillis(NODE)).hasValue(clock.get());

    assertThat(statusOf(second, "/error").lastError())
        .isEqualTo(
            "HTTP 500 Internal Server Error from http://127.0.0.1:"
                + port
                + "/error \"DCGM initialization failed\": the exporter on 127.0.0.1 answered with an error; check its log");
    assertThat(statusOf(second, "/garbage").lastError())
        .isEqualTo(
            "page from http://127.0.0.1:"
                + port
                + "/garbage has no valid samples, 1 malformed line (line 1: expected a metric name, found"
                + " '<html><body><h1>It works!</h1></body></h...'): is this a Prometheus exporter?");
    assertThat(statusOf(second, refused).lastError())
        .isEqualTo(
            "connection refused by 127.0.0.1:"
                + closedPort
                + ": is dcgm-exporter running on gpu-node-009?");
    assertThat(statusOf(second, "/slow").lastError())
        .isEqualTo(
            "no complete answer from http://127.0.0.1:"
                + port
                + "/slow within "
                + TIMEOUT
                + " ms (scrapeTimeoutMillis): is 127.0.0.1 overloaded, or the exporter hanging?");
    assertThat(statusOf(second, "/wrong-path").lastError())
        .contains("HTTP 404")
        .endsWith("check __metrics_path__ of this target in the targets file");
    assertThat(second)
        .filteredOn(s -> !s.target().equals(good))
        .allSatisfy(
            s -> {
              assertThat(s.health()).isEqualTo(Health.DOWN);
              assertThat(s.samples()).isZero();
              assertThat(s.lastScrape()).isNotNull();
            });
    assertThat(store.nodes()).containsExactly(NODE);
  }

  @Test
  void refusesAPageLargerThanTheLimit() throws Exception {
    loop.setTargets(List.of(target(port, "/huge")));

    TargetStatus huge = scrapeRound().get(0);

    assertThat(huge.health()).isEqualTo(Health.DOWN);
    assertThat(huge.lastError())
        .isEqualTo(
            "page from http://127.0.0.1:"
                + port
                + "/huge is larger than 16 MiB: is this a dcgm-exporter?");
  }

  @Test
  void targetsKeepTheirStatusWhenTheListChangesAroundThem() throws Exception {
    ScrapeTarget good = target(port, "/metrics");
    loop.setTargets(List.of(good));
    scrapeRound();

    loop.setTargets(List.of(good, target(port, "/error")));

    assertThat(loop.statuses())
        .extracting(TargetStatus::health)
        .containsExactly(Health.UNKNOWN, Health.UP);
    loop.setTargets(List.of());
    assertThat(loop.statuses()).isEmpty();
    assertThat(scrapeRound()).isEmpty();
  }

  @Test
  void aTargetThatComesBackIsUpAgain() throws Exception {
    ScrapeTarget flaky = target(port, "/metrics");
    loop.setTargets(List.of(flaky));
    HttpServer other =
        await(vertx.createHttpServer().requestHandler(this::serve).listen(0, "127.0.0.1"));
    ScrapeTarget moving = target(other.actualPort(), "/metrics");
    loop.setTargets(List.of(flaky, moving));
    assertThat(scrapeRound()).extracting(TargetStatus::health).containsOnly(Health.UP);

    await(other.close());
    scrapeRound();
    List<TargetStatus> afterClose = scrapeRound();

    assertThat(statusOf(afterClose, flaky).health()).isEqualTo(Health.UP);
    assertThat(statusOf(afterClose, moving).health()).isEqualTo(Health.DOWN);
    assertThat(statusOf(afterClose, moving).lastError())
        .startsWith("connection refused by " + moving.address());
    assertThat(loop.statuses()).isEqualTo(afterClose);
  }

  @Test
  void aPageWithOneMalformedLineIsRefusedWholeAndSaysWhichLine() throws Exception {
    loop.setTargets(List.of(target(port, "/one-bad-line")));

    TargetStatus refused = scrapeRound().get(0);

    assertThat(refused.health()).isEqualTo(Health.DOWN);
    assertThat(refused.lastError())
        .startsWith("page from http://127.0.0.1:" + port + "/one-bad-line refused, as Prometheus")
        .contains("1 malformed line (line ")
        .contains("value 'hot' of DCGM_FI_DEV_GPU_TEMP is not a number")
        .contains("none of its samples was used");
    assertThat(store.nodes()).isEmpty();
  }

  @Test
  void aTargetSaysItsBlankValuesAndNaming() throws Exception {
    loop.setTargets(List.of(target(port, "/blanks")));

    TargetStatus status = scrapeRound().get(0);

    assertThat(status.health()).isEqualTo(Health.UP);
    assertThat(status.node()).isEqualTo("gpu-node-009");
    assertThat(status.blankValues()).isEqualTo(1);
    assertThat(status.skipped())
        .isEqualTo(
            "1 blank value (DCGM could not read the field; e.g."
                + " DCGM_FI_DEV_GPU_TEMP{gpu=\"1\"}: DCGM's int64 blank)");
    assertThat(status.naming()).isEqualTo("DCGM 4.x");
  }
}
