package io.bulwark.telemetry.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bulwark.api.fleet.NodeId;
import io.bulwark.api.system.SubsystemState;
import io.bulwark.api.system.SubsystemStatus;
import io.bulwark.api.telemetry.ScrapeTarget;
import io.bulwark.api.telemetry.SeriesId;
import io.bulwark.api.telemetry.TargetStatus;
import io.bulwark.api.telemetry.TargetStatus.Health;
import io.bulwark.testing.DcgmExporterPage;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * An exporter that invents nodes or metric names cannot exhaust telemetry's memory or starve the
 * other targets: over real scrapes of loopback exporters, one target that reports a new Hostname
 * every scrape and one that reports new DCGM_FI_* names every scrape are held at their limits with
 * a clear error, while a sound target next to them is scraped as before; the store never holds more
 * series than its budget, and forgetting the invented nodes gives their room back.
 */
class CardinalityLimitsTest {
  private static final int FIELDS = DcgmExporterPage.FIELDS.size();
  private static final TargetLimits LIMITS = new TargetLimits(300, 100, 4);

  private Vertx vertx;
  private HttpServer server;
  private final AtomicLong round = new AtomicLong();
  private final AtomicLong clock = new AtomicLong(1_700_000_000_000L);
  private final SeriesStore store = new SeriesStore(10, 0, new SeriesBudget(2_000));
  private ScrapeLoop loop;
  private ScrapeTarget good;
  private ScrapeTarget inventsHosts;
  private ScrapeTarget inventsMetrics;

  @BeforeEach
  void start() throws Exception {
    vertx = Vertx.vertx();
    server = await(vertx.createHttpServer().requestHandler(this::serve).listen(0, "127.0.0.1"));
    int port = server.actualPort();
    good = new ScrapeTarget("127.0.0.1:" + port, "http", "/good", Map.of());
    inventsHosts = new ScrapeTarget("127.0.0.1:" + port, "http", "/hosts", Map.of());
    inventsMetrics = new ScrapeTarget("127.0.0.1:" + port, "http", "/metrics", Map.of());
    loop =
        new ScrapeLoop(
            vertx,
            store,
            new TelemetryOptions(Path.of("unused.json"), 1000, 800, 10),
            clock::get,
            LIMITS);
    loop.setTargets(List.of(good, inventsHosts, inventsMetrics));
  }

  @AfterEach
  void stop() throws Exception {
    loop.close();
    await(server.close());
    await(vertx.close());
  }

  private void serve(HttpServerRequest request) {
    long r = round.get();
    String page =
        switch (request.path()) {
          case "/good" -> DcgmExporterPage.render("gpu-node-001", 8, r);
          case "/hosts" -> DcgmExporterPage.render("invented-" + r, 1, r);
          default -> inventedMetrics(r);
        };
    request.response().putHeader("Content-Type", "text/plain; version=0.0.4").end(page);
  }

  /** A page of 60 metric names never seen before, on one node. */
  private static String inventedMetrics(long r) {
    StringBuilder page = new StringBuilder();
    for (int i = 0; i < 60; i++) {
      page.append("DCGM_FI_INVENTED_")
          .append(r)
          .append('_')
          .append(i)
          .append("{gpu=\"0\",Hostname=\"metric-inventor\"} 1\n");
    }
    return page.toString();
  }

  @Test
  void inventedNodesAndSeriesAreHeldAtTheTargetsLimitsWhileASoundTargetIsScrapedOn()
      throws Exception {
    List<TargetStatus> statuses = List.of();
    for (int i = 0; i < 30; i++) {
      statuses = scrapeRound();
      assertThat(store.budget().used()).isLessThanOrEqualTo(store.budget().limit());
    }

    TargetStatus sound = statusOf(statuses, good);
    assertThat(sound.health()).isEqualTo(Health.UP);
    assertThat(sound.lastError()).isEmpty();
    assertThat(sound.samples()).isEqualTo(8 * FIELDS);
    SeriesId temperature = SeriesId.of(NodeId.of("gpu-node-001"), 0, "DCGM_FI_DEV_GPU_TEMP");
    assertThat(store.latest(temperature).timestampMillis()).isEqualTo(clock.get());

    TargetStatus hosts = statusOf(statuses, inventsHosts);
    assertThat(hosts.health()).isEqualTo(Health.UP);
    assertThat(hosts.lastError())
        .contains("for nodes beyond the 4 this target may report (maxNodesPerTarget")
        .contains("Hostname invented-30")
        .contains("PID io.bulwark.telemetry");
    long invented = store.nodes().stream().filter(n -> n.value().startsWith("invented-")).count();
    assertThat(invented).as("invented nodes kept").isEqualTo(4);

    TargetStatus metrics = statusOf(statuses, inventsMetrics);
    assertThat(metrics.lastError())
        .contains("beyond the 300 this target may create (maxSeriesPerTarget)");
    NodeId inventor = NodeId.of("metric-inventor");
    assertThat(store.existingNode(inventor).seriesCount()).isEqualTo(300);

    SubsystemStatus health =
        new TelemetryHealth(
                new TelemetryOptions(Path.of("targets.json"), 1000, 800, 10),
                Clock.fixed(Instant.ofEpochMilli(clock.get()), ZoneOffset.UTC))
            .status(
                statuses,
                "",
                store.budget(),
                store.nodeCount(),
                loop.droppedForLimits(),
                loop.pacing());
    assertThat(health.state()).isEqualTo(SubsystemState.DEGRADED);
    assertThat(health.summary()).contains("2 over their limits");
    assertThat(health.measurements()).containsEntry("bulwark_telemetry_targets_limited", 2.0);
  }

  @Test
  void aPageMayCreateOnlySoManySeriesAtOnceAndTheRestFollowOnLaterScrapes() throws Exception {
    ScrapeLoop wide =
        new ScrapeLoop(
            vertx,
            store,
            new TelemetryOptions(Path.of("unused.json"), 1000, 800, 10),
            clock::get,
            new TargetLimits(10_000, 8 * FIELDS / 3 + 1, 4));
    try {
      wide.setTargets(List.of(good));
      TargetStatus first = statusOf(scrape(wide), good);
      assertThat(first.lastError()).contains("(maxNewSeriesPerScrape)");
      TargetStatus later = first;
      for (int i = 0; i < 3; i++) {
        later = statusOf(scrape(wide), good);
      }
      assertThat(later.lastError()).as("every series taken by the third scrape").isEmpty();
      assertThat(store.existingNode(NodeId.of("gpu-node-001")).seriesCount()).isEqualTo(8 * FIELDS);
    } finally {
      wide.close();
    }
  }

  @Test
  void whenTheBudgetIsSpentNewSeriesAreDroppedUntilNodesAreForgotten() throws Exception {
    SeriesStore small = new SeriesStore(10, 0, new SeriesBudget(8 * FIELDS + 10));
    ScrapeLoop tight =
        new ScrapeLoop(
            vertx,
            small,
            new TelemetryOptions(Path.of("unused.json"), 1000, 800, 10),
            clock::get,
            TargetLimits.STANDARD);
    try {
      tight.setTargets(List.of(inventsHosts, good));
      List<TargetStatus> statuses = List.of();
      for (int i = 0; i < 4; i++) {
        statuses = scrape(tight);
      }
      assertThat(small.budget().used()).isEqualTo(small.budget().limit());
      String errors =
          statusOf(statuses, good).lastError() + statusOf(statuses, inventsHosts).lastError();
      assertThat(errors).contains("all this heap allows (maxSeries)").contains("-Xmx");

      // when the invented nodes are forgotten, their room is free again
      tight.setTargets(List.of(good));
      for (NodeId node : small.nodes()) {
        if (node.value().startsWith("invented-")) {
          tight.forget(node);
          assertThat(small.forget(node)).isTrue();
        }
      }
      TargetStatus sound = null;
      for (int i = 0; i < 2; i++) {
        sound = statusOf(scrape(tight), good);
      }
      assertThat(sound.lastError()).isEmpty();
      assertThat(small.existingNode(NodeId.of("gpu-node-001")).seriesCount()).isEqualTo(8 * FIELDS);
    } finally {
      tight.close();
    }
  }

  @Test
  void theLimitsAreValidatedWithTheNameOfTheProperty() {
    assertThatThrownBy(() -> new TargetLimits(0, 1, 1)).hasMessageContaining("maxSeriesPerTarget");
    assertThatThrownBy(() -> new TargetLimits(1, 1, 0)).hasMessageContaining("maxNodesPerTarget");
    assertThat(SeriesBudget.of(0, 6L << 30, 600, 60).limit())
        .as("series in 60% of a 6 GiB heap")
        .isBetween(400_000, 460_000);
  }

  private List<TargetStatus> scrapeRound() throws Exception {
    return scrape(loop);
  }

  private List<TargetStatus> scrape(ScrapeLoop l) throws Exception {
    round.incrementAndGet();
    clock.addAndGet(1000);
    return await(l.scrapeAll());
  }

  private static TargetStatus statusOf(List<TargetStatus> statuses, ScrapeTarget target) {
    return statuses.stream().filter(s -> s.target().equals(target)).findFirst().orElseThrow();
  }

  private static <T> T await(Future<T> future) throws Exception {
    return future.toCompletionStage().toCompletableFuture().get(20, TimeUnit.SECONDS);
  }
}
