package io.bulwark.telemetry.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.bulwark.api.telemetry.ScrapeTarget;
import io.bulwark.testing.DcgmExporterPage;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The scrape loop sheds load as a whole: while scrapes are missed on a saturated machine every
 * target's scrapes come further apart, evenly, with a longer timeout, and once the machine has room
 * they come back to the configured interval by themselves. Real exporters over HTTP on loopback,
 * the loop's own timer; only the CPU reading is the test's, since starving this machine on purpose
 * would make the test's outcome depend on what else runs on it.
 */
class LoadSheddingTest {
  private static final int TARGETS = 40;
  private static final long INTERVAL = 300;
  private static final long TIMEOUT = 150;

  private Vertx vertx;
  private HttpServer server;
  private ScrapeLoop loop;
  private volatile double cpu = 0.30;
  private volatile long delayMillis;
  private volatile double delayedShare;
  private final Map<String, ConcurrentLinkedQueue<Long>> requests = new ConcurrentHashMap<>();

  @BeforeEach
  void start() throws Exception {
    vertx = Vertx.vertx();
    server = await(vertx.createHttpServer().requestHandler(this::serve).listen(0, "127.0.0.1"));
    TelemetryOptions options =
        new TelemetryOptions(Path.of("unused.json"), INTERVAL, TIMEOUT, 50, 4 * INTERVAL);
    ScrapePacer pacer =
        new ScrapePacer(INTERVAL, TIMEOUT, 4 * INTERVAL, () -> cpu, System::currentTimeMillis);
    loop =
        new ScrapeLoop(
            vertx,
            new SeriesStore(50),
            options,
            System::currentTimeMillis,
            TargetLimits.STANDARD,
            pacer);
    List<ScrapeTarget> targets = new ArrayList<>();
    for (int i = 0; i < TARGETS; i++) {
      targets.add(
          new ScrapeTarget(
              "127.0.0.1:" + server.actualPort(), "http", "/node/" + i + "/metrics", Map.of()));
    }
    loop.setTargets(targets);
    loop.start();
  }

  @AfterEach
  void stop() throws Exception {
    loop.close();
    await(server.close());
    await(vertx.close());
  }

  private void serve(HttpServerRequest request) {
    String path = request.path();
    requests.computeIfAbsent(path, p -> new ConcurrentLinkedQueue<>()).add(System.nanoTime());
    String node = path.split("/")[2];
    Runnable answer =
        () ->
            request
                .response()
                .putHeader("Content-Type", "text/plain; version=0.0.4")
                .end(DcgmExporterPage.render("gpu-node-" + node, 2, System.nanoTime()));
    if (delayMillis > 0 && ThreadLocalRandom.current().nextDouble() < delayedShare) {
      vertx.setTimer(delayMillis, id -> answer.run());
    } else {
      answer.run();
    }
  }

  @Test
  void missedScrapesStretchEveryTargetEvenlyAndRoomBringsTheIntervalBack() throws Exception {
    // All answer in time: nothing to shed (once the cold start, which may stretch, is over)
    waitFor(() -> loop.pacing().rounds() >= 5 && !loop.pacing().shedding(), 30);
    long overloadedAtStart = loop.pacing().overloadedRounds();
    Thread.sleep(5 * INTERVAL);
    assertThat(loop.pacing().shedding()).isFalse();
    assertThat(loop.pacing().overloadedRounds()).isEqualTo(overloadedAtStart);

    // Given a saturated machine on which a third of the pages come too late
    cpu = 0.99;
    delayMillis = 400;
    delayedShare = 0.33;

    // Then every target's interval stretches, and the timeout with it
    waitFor(() -> loop.pacing().intervalMillis() >= 2 * INTERVAL, 20);
    ScrapePacer.Report shedding = loop.pacing();
    assertThat(shedding.shedding()).isTrue();
    assertThat(shedding.overloadedRounds()).isPositive();
    assertThat(shedding.lastOverloaded().describe())
        .contains("scrapes missed")
        .contains("CPUs 99%");
    long stretched = shedding.intervalMillis();
    requests.clear();
    Thread.sleep(6 * stretched);
    assertThat(medianGapMillis())
        .as("every target is scraped less often, evenly")
        .isBetween(
            (long) (0.7 * Math.min(stretched, loop.pacing().intervalMillis())), 5 * INTERVAL);

    // When the machine has room again and the pages come in time
    delayMillis = 0;
    cpu = 0.30;

    // Then the interval comes back by itself
    waitFor(() -> !loop.pacing().shedding(), 40);
    assertThat(loop.pacing().intervalMillis()).isEqualTo(INTERVAL);
    requests.clear();
    Thread.sleep(10 * INTERVAL);
    assertThat(medianGapMillis()).isBetween(INTERVAL / 2, INTERVAL + INTERVAL / 2);
  }

  /** The median time between two scrapes of one target, over every target. */
  private long medianGapMillis() {
    List<Long> gaps = new ArrayList<>();
    for (ConcurrentLinkedQueue<Long> times : requests.values()) {
      Long previous = null;
      for (Long t : times) {
        if (previous != null) {
          gaps.add((t - previous) / 1_000_000);
        }
        previous = t;
      }
    }
    assertThat(gaps).as("scrapes seen").hasSizeGreaterThan(TARGETS);
    gaps.sort(null);
    return gaps.get(gaps.size() / 2);
  }

  private static void waitFor(BooleanSupplier condition, int seconds) throws Exception {
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    while (!condition.getAsBoolean()) {
      assertThat(System.nanoTime()).as("waited %d s", seconds).isLessThan(end);
      Thread.sleep(20);
    }
  }

  private static <T> T await(Future<T> future) throws Exception {
    return future.toCompletionStage().toCompletableFuture().get(20, TimeUnit.SECONDS);
  }
}
