package io.bulwark.telemetry.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bulwark.api.fleet.Gpu;
import io.bulwark.api.fleet.NodeId;
import io.bulwark.api.telemetry.DcgmField;
import io.bulwark.api.telemetry.SeriesId;
import io.bulwark.api.telemetry.TargetStatus;
import io.bulwark.api.telemetry.TargetStatus.Health;
import io.bulwark.testing.DcgmExporterPage;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DcgmTelemetryTest {
  private static final NodeId NODE = NodeId.of("gpu-node-003");
  @TempDir Path dir;
  private Vertx vertx;
  private HttpServer exporter;

  @BeforeEach
  void startExporter() throws Exception {
    vertx = Vertx.vertx();
    exporter =
        vertx
            .createHttpServer()
            .requestHandler(
                request -> request.response().end(DcgmExporterPage.render("gpu-node-003", 4, 1)))
            .listen(0, "127.0.0.1")
            .toCompletionStage()
            .toCompletableFuture()
            .get(10, TimeUnit.SECONDS);
  }

  @AfterEach
  void stop() throws Exception {
    vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  private static void waitFor(String what, BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!condition.getAsBoolean()) {
      assertThat(System.nanoTime()).as("waiting for " + what).isLessThan(deadline);
      Thread.sleep(20);
    }
  }

  @Test
  void startsWithoutTargetsFileAndScrapesOnceItAppears() throws Exception {
    Path file = dir.resolve("sim-targets.json");
    DcgmTelemetry telemetry =
        new DcgmTelemetry(vertx, TelemetryOptionsTest.config(file.toString(), 400, 300, 10));
    try {
      List<TargetStatus> before = telemetry.targets();
      assertThat(before).hasSize(1);
      assertThat(before.get(0).health()).isEqualTo(Health.DOWN);
      assertThat(before.get(0).target().url())
          .isEqualTo("file://localhost" + file.toAbsolutePath());
      assertThat(before.get(0).lastError()).contains("does not exist (yet)");
      assertThat(telemetry.nodes()).isEmpty();

      Files.writeString(file, "[{\"targets\":[\"127.0.0.1:" + exporter.actualPort() + "\"]}]");

      AtomicReference<List<TargetStatus>> statuses = new AtomicReference<>();
      waitFor(
          "three scrapes of the node, the last one good",
          () -> {
            statuses.set(telemetry.targets());
            return telemetry.window(SeriesId.of(NODE, 2, DcgmField.GPU_TEMP), 0).size() >= 3
                && statuses.get().get(0).health() == Health.UP;
          });
      assertThat(statuses.get())
          .singleElement()
          .satisfies(
              status -> {
                assertThat(status.health()).isEqualTo(Health.UP);
                assertThat(status.node()).isEqualTo("gpu-node-003");
                assertThat(status.samples()).isEqualTo(120);
              });
      assertThat(telemetry.nodes()).containsExactly(NODE);
      assertThat(telemetry.reportedGpus(NODE)).extracting(Gpu::index).containsExactly(0, 1, 2, 3);
      assertThat(telemetry.metrics(NODE))
          .contains(DcgmField.SM_ACTIVE, DcgmField.ECC_DBE_VOL_TOTAL);
      assertThat(telemetry.lastScrapeMillis(NODE)).isPresent();
      assertThat(telemetry.latest(SeriesId.of(NODE, 2, DcgmField.GPU_TEMP)).value())
          .isEqualTo(DcgmExporterPage.value(3, 2, 1));
    } finally {
      telemetry.stop();
    }
  }

  @Test
  void aMalformedTargetsFileShowsInTheTargetsAndKeepsScraping() throws Exception {
    Path file = dir.resolve("targets.json");
    Files.writeString(file, "[{\"targets\":[\"127.0.0.1:" + exporter.actualPort() + "\"]}]");
    DcgmTelemetry telemetry =
        new DcgmTelemetry(vertx, TelemetryOptionsTest.config(file.toString(), 400, 300, 10));
    try {
      waitFor("the target to be up", () -> telemetry.targets().get(0).health() == Health.UP);

      Files.writeString(file, "[{\"targets\": oops");

      waitFor("the file problem", () -> telemetry.targets().size() == 2);
      long scraped = telemetry.lastScrapeMillis(NODE).orElseThrow();
      waitFor("another scrape", () -> telemetry.lastScrapeMillis(NODE).orElseThrow() > scraped);
      assertThat(telemetry.targets())
          .filteredOn(status -> status.target().scheme().equals("file"))
          .singleElement()
          .satisfies(
              status ->
                  assertThat(status.lastError())
                      .contains("is malformed")
                      .endsWith("still scraping the previous 1 targets"));
    } finally {
      telemetry.stop();
    }
  }

  @Test
  void refusesToStartWithAnInvalidConfiguration() {
    assertThatThrownBy(
            () -> new DcgmTelemetry(vertx, TelemetryOptionsTest.config("t.json", 1000, 1000, 600)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("scrapeTimeoutMillis")
        .hasMessageContaining("1000");
  }

  @Test
  void restoresTheRollupsOfThePreviousRunOnStart() throws Exception {
    Path folder = dir.resolve("rollups");
    SeriesId temp = SeriesId.of(NODE, 2, DcgmField.GPU_TEMP);
    long now = System.currentTimeMillis();
    long start = (now / 60_000 - 10) * 60_000;
    SeriesStore previous = new SeriesStore(600, 360);
    AtomicLong clock = new AtomicLong(start);
    RollupArchive archive =
        new RollupArchive(previous, new RollupOptions(360, folder, 14, 1), 5000, clock::get);
    for (long t = start; t < start + 5 * 60_000; t += 15_000) {
      previous.append(temp, t, 50 + (t / 15_000) % 4);
    }
    clock.set(start + 5 * 60_000 + 5000);
    archive.close();
    assertThat(previous.rollup(temp, 0)).hasSize(5);

    DcgmTelemetry telemetry =
        new DcgmTelemetry(
            vertx,
            TelemetryOptionsTest.config(
                dir.resolve("none.json").toString(), 400, 300, 10, 6, folder.toString(), 14, 1));
    try {
      waitFor(
          "the restore on the writer thread",
          () -> telemetry.rollup(temp, 0).equals(previous.rollup(temp, 0)));
      assertThat(telemetry.rollup(temp, start + 3 * 60_000)).hasSize(2);
      assertThat(telemetry.nodes()).as("known from roll-ups only, not scraped").isEmpty();
    } finally {
      telemetry.stop();
    }
  }
}
