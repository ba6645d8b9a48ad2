package io.bulwark.telemetry.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.bulwark.api.fleet.Gpu;
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
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Many targets scraped at once, round after round, through the shared page arrays and each parser's
 * memory of its target's previous page: every node must get exactly its own samples and GPUs every
 * round, also when a page changes its layout (a GPU leaves and comes back), arrives in many small
 * writes, or is larger than any page before.
 */
class ConcurrentScrapesTest {
  private static final int NODES = 24;
  private static final int ROUNDS = 40;
  private static final int GPUS = 8;
  private static final int TEMP_FIELD = 3;

  private Vertx vertx;
  private HttpServer server;
  private final AtomicLong round = new AtomicLong();
  private final AtomicLong clock = new AtomicLong(1_700_000_000_000L);
  private final SeriesStore store = new SeriesStore(ROUNDS + 5);
  private ScrapeLoop loop;

  @BeforeEach
  void startExporters() throws Exception {
    vertx = Vertx.vertx();
    server =
        vertx
            .createHttpServer()
            .requestHandler(this::serve)
            .listen(0, "127.0.0.1")
            .toCompletionStage()
            .toCompletableFuture()
            .get(10, TimeUnit.SECONDS);
    loop =
        new ScrapeLoop(
            vertx,
            store,
            new TelemetryOptions(Path.of("unused.json"), 10_000, 5_000, ROUNDS + 5),
            clock::get);
    List<ScrapeTarget> targets = new ArrayList<>();
    for (int n = 0; n < NODES; n++) {
      targets.add(
          new ScrapeTarget(
              "127.0.0.1:" + server.actualPort(), "http", "/node/" + n + "/metrics", Map.of()));
    }
    loop.setTargets(targets);
  }

  @AfterEach
  void stopExporters() throws Exception {
    loop.close();
    server.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  private static String hostname(int node) {
    return String.format("gpu-node-%03d", node);
  }

  /**
   * The GPUs node {@code node} reports in round {@code r}: GPU 3 of odd nodes leaves in odd rounds.
   */
  private static int[] gpus(int node, long r) {
    boolean gpu3Gone = node % 2 == 1 && r % 2 == 1;
    return java.util.stream.IntStream.range(0, GPUS).filter(g -> !(gpu3Gone && g == 3)).toArray();
  }

  /** Node {@code node}'s page in round {@code r}, every fourth node's growing round by round. */
  private static String page(int node, long r) {
    String full = DcgmExporterPage.render(hostname(node), GPUS, r * 100 + node);
    StringBuilder page = new StringBuilder(full.length() + 8192);
    int[] kept = gpus(node, r);
    for (String line : full.split("\n")) {
      int at = line.indexOf("{gpu=\"");
      if (at >= 0) {
        int gpu = line.charAt(at + 6) - '0';
        if (java.util.Arrays.stream(kept).noneMatch(g -> g == gpu)) {
          continue;
        }
      }
      page.append(line).append('\n');
    }
    if (node % 4 == 0) {
      for (int i = 0; i < r * 40; i++) {
        page.append("# padding comment ").append(i).append(" that makes the page grow\n");
      }
    }
    return page.toString();
  }

  private void serve(HttpServerRequest request) {
    String[] parts = request.path().split("/");
    int node = Integer.parseInt(parts[2]);
    byte[] body = page(node, round.get()).getBytes(StandardCharsets.UTF_8);
    HttpServerResponse response = request.response();
    response.putHeader("Content-Type", "text/plain; version=0.0.4");
    if (node % 3 == 0) {
      // In many small chunks, some of them a little later.
      response.setChunked(true);
      writeInPieces(response, body, 0);
    } else {
      response.end(Buffer.buffer(body));
    }
  }

  private void writeInPieces(HttpServerResponse response, byte[] body, int from) {
    if (from >= body.length) {
      response.end();
      return;
    }
    int to = Math.min(body.length, from + 1500);
    response.write(Buffer.buffer(java.util.Arrays.copyOfRange(body, from, to)));
    if ((from / 1500) % 7 == 3) {
      vertx.setTimer(1, id -> writeInPieces(response, body, to));
    } else {
      writeInPieces(response, body, to);
    }
  }

  @Test
  void everyNodeGetsItsOwnSamplesAndGpusEveryRound() throws Exception {
    for (long r = 1; r <= ROUNDS; r++) {
      round.set(r);
      clock.addAndGet(1000);
      Future<List<TargetStatus>> done = loop.scrapeAll();
      List<TargetStatus> statuses =
          done.toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);

      assertThat(statuses).extracting(TargetStatus::health).containsOnly(Health.UP);
      for (int n = 0; n < NODES; n++) {
        NodeId node = NodeId.of(hostname(n));
        int[] expected = gpus(n, r);
        assertThat(store.reportedGpus(node))
            .as("GPUs of %s in round %d", node, r)
            .extracting(Gpu::index)
            .containsExactly(java.util.Arrays.stream(expected).boxed().toArray(Integer[]::new));
        assertThat(store.lastScrapeMillis(node)).hasValue(clock.get());
        for (int gpu : expected) {
          assertThat(store.latest(SeriesId.of(node, gpu, DcgmField.GPU_TEMP)).value())
              .as("temperature of GPU %d of %s in round %d", gpu, node, r)
              .isEqualTo(DcgmExporterPage.value(TEMP_FIELD, gpu, r * 100 + n));
          assertThat(store.latest(SeriesId.of(node, gpu, DcgmField.GPU_TEMP)).timestampMillis())
              .isEqualTo(clock.get());
        }
      }
    }
  }
}
