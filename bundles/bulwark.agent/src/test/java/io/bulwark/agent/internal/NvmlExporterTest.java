package io.bulwark.agent.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.bulwark.api.telemetry.DcgmField;
import io.vertx.core.Vertx;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The node agent end to end without a GPU: the endpoint on a real Vert.x, NVML through JNA from the
 * stand-in library (see {@link FakeNvml}), the page read back over HTTP with the appliance's own
 * exposition parser.
 */
class NvmlExporterTest {
  private static final String HOST = "gpu-node-07";
  private static final Pattern LINE =
      Pattern.compile(
          "# (HELP|TYPE) [A-Za-z_:][A-Za-z0-9_:]* .+|[A-Za-z_:][A-Za-z0-9_:]*"
              + "\\{([A-Za-z_][A-Za-z0-9_]*=\"([^\"\\\\\\n]|\\\\.)*\")(,[A-Za-z_][A-Za-z0-9_]*="
              + "\"([^\"\\\\\\n]|\\\\.)*\")*\\} -?[0-9]+(\\.[0-9]{6})?");

  private final HttpClient http =
      // HTTP/1.1 as Prometheus and the appliance scrape (no h2c upgrade attempt on a POST).
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(5))
          .build();
  private Vertx vertx;
  private NvmlExporter exporter;

  @BeforeEach
  void startVertx() {
    vertx = Vertx.vertx();
  }

  @AfterEach
  void stop() {
    if (exporter != null) {
      exporter.stop();
    }
    vertx.close().toCompletionStage().toCompletableFuture().join();
  }

  private void start(String library) {
    exporter = new NvmlExporter(vertx, new AgentOptions("127.0.0.1", 0, library, HOST, 0));
  }

  private HttpResponse<String> get(String path) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + exporter.port() + path))
            .timeout(Duration.ofSeconds(10))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private ScrapedPage scrape() throws Exception {
    HttpResponse<String> response = get("/metrics");
    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.headers().firstValue("Content-Type"))
        .hasValue("text/plain; version=0.0.4; charset=utf-8");
    ScrapedPage page = new ScrapedPage(response.body());
    assertThat(page.summary.malformed()).as(page.summary.describeMalformed()).isZero();
    return page;
  }

  /** Scrapes until {@code condition} holds, at most 5 s. */
  private ScrapedPage scrapeUntil(Predicate<ScrapedPage> condition) throws Exception {
    ScrapedPage page = scrape();
    for (int i = 0; i < 100 && !condition.test(page); i++) {
      Thread.sleep(50);
      page = scrape();
    }
    return page;
  }

  @Test
  void servesEveryReadingUnderDcgmExporterNamesAndLabels() throws Exception {
    new FakeNvml().line("driver 550.54.15").line("gpus 2").fullGpu(0).fullGpu(1).write();
    start("libnvidia-ml.so.1");

    ScrapedPage page = scrape();

    assertThat(page.named(AgentPage.UP)).singleElement().extracting(s -> s.value()).isEqualTo(1.0);
    assertThat(page.named(DcgmField.GPU_TEMP))
        .extracting(s -> s.labels())
        .containsExactly(
            java.util.Map.of(
                "gpu", "0",
                "UUID", FakeNvml.uuid(0),
                "pci_bus_id", "00000000:18:00.0",
                "device", "nvidia0",
                "modelName", "NVIDIA H100 80GB HBM3",
                "Hostname", HOST,
                "DCGM_FI_DRIVER_VERSION", "550.54.15"),
            java.util.Map.of(
                "gpu", "1",
                "UUID", FakeNvml.uuid(1),
                "pci_bus_id", "00000000:34:00.0",
                "device", "nvidia1",
                "modelName", "NVIDIA H100 80GB HBM3",
                "Hostname", HOST,
                "DCGM_FI_DRIVER_VERSION", "550.54.15"));
    assertThat(page.value(DcgmField.GPU_TEMP, 1)).hasValue(42);
    assertThat(page.value(DcgmField.MEMORY_TEMP, 0)).hasValue(38);
    assertThat(page.value(DcgmField.SLOWDOWN_TEMP, 0)).hasValue(87);
    assertThat(page.value(DcgmField.SHUTDOWN_TEMP, 0)).hasValue(92);
    assertThat(page.value(DcgmField.SM_CLOCK, 1)).hasValue(1979);
    assertThat(page.value(DcgmField.MAX_MEM_CLOCK, 0)).hasValue(2619);
    assertThat(page.value(DcgmField.POWER_USAGE, 1)).hasValue(312.457);
    assertThat(page.text).contains("DCGM_FI_DEV_POWER_USAGE{gpu=\"0\"").contains("} 312.456000\n");
    assertThat(page.value(DcgmField.POWER_LIMIT, 0)).hasValue(700.0);
    assertThat(page.value(DcgmField.ENFORCED_POWER_LIMIT, 0)).hasValue(650.0);
    assertThat(page.value(DcgmField.GPU_UTIL, 0)).hasValue(97);
    assertThat(page.value(DcgmField.MEM_COPY_UTIL, 0)).hasValue(45);
    assertThat(page.value(DcgmField.CLOCKS_EVENT_REASONS, 0)).hasValue(4);
    assertThat(page.value(DcgmField.POWER_VIOLATION, 0)).hasValue(1_500_000);
    assertThat(page.value(DcgmField.THERMAL_VIOLATION, 0)).hasValue(2000);
    assertThat(page.value(DcgmField.ECC_SBE_VOL_TOTAL, 0)).hasValue(3);
    assertThat(page.value(DcgmField.ECC_DBE_VOL_TOTAL, 0)).hasValue(0);
    assertThat(page.value(DcgmField.ECC_SBE_AGG_TOTAL, 0)).hasValue(17);
    assertThat(page.value(DcgmField.ECC_DBE_AGG_TOTAL, 0)).hasValue(1);
    assertThat(page.value(DcgmField.RETIRED_SBE, 0)).hasValue(2);
    assertThat(page.value(DcgmField.RETIRED_DBE, 0)).hasValue(1);
    assertThat(page.value(DcgmField.RETIRED_PENDING, 0)).hasValue(0);
    assertThat(page.value(DcgmField.CORRECTABLE_REMAPPED_ROWS, 0)).hasValue(5);
    assertThat(page.value(DcgmField.UNCORRECTABLE_REMAPPED_ROWS, 0)).hasValue(1);
    assertThat(page.value(DcgmField.ROW_REMAP_PENDING, 0)).hasValue(0);
    assertThat(page.value(DcgmField.ROW_REMAP_FAILURE, 0)).hasValue(0);
    assertThat(page.value(DcgmField.BANKS_REMAP_ROWS_AVAIL_MAX, 0)).hasValue(636);
    assertThat(page.value(DcgmField.BANKS_REMAP_ROWS_AVAIL_HIGH, 0)).hasValue(4);
    assertThat(page.value(DcgmField.PCIE_LINK_GEN, 0)).hasValue(5);
    assertThat(page.value(DcgmField.PCIE_MAX_LINK_WIDTH, 0)).hasValue(16);
    assertThat(page.value(DcgmField.PCIE_REPLAY_COUNTER, 0)).hasValue(7);
    assertThat(page.value(DcgmField.NVLINK_CRC_FLIT_ERRORS, 0)).hasValue(18 * 2);
    assertThat(page.value(DcgmField.NVLINK_CRC_DATA_ERRORS, 0)).hasValue(18 * 1);
    assertThat(page.value(DcgmField.NVLINK_REPLAY_ERRORS, 0)).hasValue(18 * 3);
    assertThat(page.value(DcgmField.NVLINK_RECOVERY_ERRORS, 0)).hasValue(0);
    assertThat(page.value(DcgmField.XID_ERRORS, 0)).hasValue(0);
    assertThat(page.types).containsEntry(DcgmField.GPU_TEMP, "gauge");
    assertThat(page.types).containsEntry(DcgmField.PCIE_REPLAY_COUNTER, "counter");
    assertThat(page.help).containsEntry(DcgmField.GPU_TEMP, "GPU temperature (in C).");
    assertThat(page.named(AgentPage.GPU_LOST)).isEmpty();
    assertThat(page.text.split("\n")).allSatisfy(line -> assertThat(line).matches(LINE));
  }

  @Test
  void anXidQueuedInTheDriverAppearsAsTheLastXidOfThatGpu() throws Exception {
    FakeNvml node = new FakeNvml().line("gpus 2").fullGpu(0).fullGpu(1);
    node.write();
    start("libnvidia-ml.so.1");
    assertThat(scrape().value(DcgmField.XID_ERRORS, 1)).hasValue(0);

    node.line("xid 1 79").write();
    ScrapedPage page = scrapeUntil(p -> p.value(DcgmField.XID_ERRORS, 1).orElse(0) == 79);

    assertThat(page.value(DcgmField.XID_ERRORS, 1)).hasValue(79);
    assertThat(page.value(DcgmField.XID_ERRORS, 0)).hasValue(0);

    node.line("xid 1 48").write();
    assertThat(
            scrapeUntil(p -> p.value(DcgmField.XID_ERRORS, 1).orElse(0) == 48)
                .value(DcgmField.XID_ERRORS, 1))
        .hasValue(48);
  }

  @Test
  void aGpuThatIsLostDisappearsFromThePageAndIsReported() throws Exception {
    new FakeNvml().line("gpus 2").fullGpu(0).fullGpu(1).write();
    start("libnvidia-ml.so.1");
    assertThat(scrape().dcgmGpus()).containsExactly("0", "1");

    new FakeNvml().line("gpus 2").fullGpu(0).fullGpu(1).set(1, "lost", 1).write();
    ScrapedPage lost = scrape();

    assertThat(lost.dcgmGpus()).containsExactly("0");
    assertThat(lost.named(AgentPage.UP)).singleElement().extracting(s -> s.value()).isEqualTo(1.0);
    assertThat(lost.named(AgentPage.GPU_LOST))
        .singleElement()
        .satisfies(
            s -> {
              assertThat(s.labels()).containsEntry("gpu", "1");
              assertThat(s.labels()).containsEntry("UUID", FakeNvml.uuid(1));
              assertThat(s.value()).isEqualTo(1.0);
            });

    new FakeNvml().line("gpus 1").fullGpu(0).write();
    ScrapedPage gone = scrape();
    assertThat(gone.dcgmGpus()).containsExactly("0");
    assertThat(gone.named(AgentPage.GPU_LOST))
        .singleElement()
        .extracting(s -> s.labels().get("UUID"))
        .isEqualTo(FakeNvml.uuid(1));

    new FakeNvml().line("gpus 2").fullGpu(0).fullGpu(1).write();
    ScrapedPage back = scrape();
    assertThat(back.dcgmGpus()).containsExactly("0", "1");
    assertThat(back.named(AgentPage.GPU_LOST)).isEmpty();
  }

  @Test
  void aMissingLibraryServesNvmlDownAndNoGpus() throws Exception {
    start("libnvidia-ml-absent.so.1");

    ScrapedPage page = scrape();

    assertThat(page.named(AgentPage.UP)).singleElement().extracting(s -> s.value()).isEqualTo(0.0);
    assertThat(page.dcgmGpus()).isEmpty();
  }

  @Test
  void aDriverThatFailsToInitialiseIsDownUntilItRecovers() throws Exception {
    new FakeNvml().line("init 9").line("gpus 1").fullGpu(0).write();
    start("libnvidia-ml.so.1");
    ScrapedPage down = scrape();
    assertThat(down.named(AgentPage.UP)).singleElement().extracting(s -> s.value()).isEqualTo(0.0);
    assertThat(down.dcgmGpus()).isEmpty();

    new FakeNvml().line("gpus 1").fullGpu(0).write();
    ScrapedPage up = scrape();

    assertThat(up.named(AgentPage.UP)).singleElement().extracting(s -> s.value()).isEqualTo(1.0);
    assertThat(up.value(DcgmField.GPU_TEMP, 0)).hasValue(41);
  }

  @Test
  void readingsTheGpuDoesNotSupportAreLeftOut() throws Exception {
    new FakeNvml()
        .line("gpus 2")
        .fullGpu(0)
        .set(1, "uuid", FakeNvml.uuid(1))
        .set(1, "name", "NVIDIA A10")
        .set(1, "bus", "00000000:65:00.0")
        .set(1, "temp", 55)
        .set(1, "power_mw", 90000)
        .set(1, "xid_unsupported", 1)
        .write();
    start("libnvidia-ml.so.1");

    ScrapedPage page = scrape();

    assertThat(page.value(DcgmField.GPU_TEMP, 1)).hasValue(55);
    assertThat(page.value(DcgmField.POWER_USAGE, 1)).hasValue(90.0);
    assertThat(page.value(DcgmField.MEMORY_TEMP, 1)).isEmpty();
    assertThat(page.value(DcgmField.ECC_DBE_VOL_TOTAL, 1)).isEmpty();
    assertThat(page.value(DcgmField.NVLINK_CRC_FLIT_ERRORS, 1)).isEmpty();
    assertThat(page.value(DcgmField.CORRECTABLE_REMAPPED_ROWS, 1)).isEmpty();
    assertThat(page.value(DcgmField.BANKS_REMAP_ROWS_AVAIL_MAX, 1)).isEmpty();
    assertThat(page.value(DcgmField.XID_ERRORS, 1)).isEmpty();
    assertThat(page.value(DcgmField.MEMORY_TEMP, 0)).hasValue(38);
  }

  @Test
  void anOlderDriverGivesTheClockReasonsThroughTheThrottleCall() throws Exception {
    new FakeNvml().line("gpus 1").fullGpu(0).set(0, "no_event_reasons", 1).write();
    start("libnvidia-ml.so.1");

    assertThat(scrape().value(DcgmField.CLOCKS_EVENT_REASONS, 0)).hasValue(4);
  }

  @Test
  void aGpuWithoutNvLinkHasNoNvLinkReadings() throws Exception {
    new FakeNvml().line("gpus 1").fullGpu(0).set(0, "nvlinks", 0).write();
    start("libnvidia-ml.so.1");

    ScrapedPage page = scrape();

    assertThat(page.named(DcgmField.NVLINK_CRC_FLIT_ERRORS)).isEmpty();
    assertThat(page.help).doesNotContainKey(DcgmField.NVLINK_CRC_FLIT_ERRORS);
    assertThat(page.value(DcgmField.GPU_TEMP, 0)).hasValue(41);
  }

  @Test
  void otherPathsAndMethodsAreRefused() throws Exception {
    new FakeNvml().line("gpus 0").write();
    start("libnvidia-ml.so.1");

    assertThat(get("/").statusCode()).isEqualTo(404);
    assertThat(
            http.send(
                    HttpRequest.newBuilder(
                            URI.create("http://127.0.0.1:" + exporter.port() + "/metrics"))
                        .POST(HttpRequest.BodyPublishers.ofString("x"))
                        .timeout(Duration.ofSeconds(10))
                        .build(),
                    HttpResponse.BodyHandlers.ofString())
                .statusCode())
        .isEqualTo(405);
  }

  @Test
  void actionPathsOnTheMetricsPortAreRefusedWithHowToEnrol() throws Exception {
    start("libnvidia-ml-absent.so.1");

    HttpResponse<String> reset =
        http.send(
            HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + exporter.port() + "/v1/actions"))
                .POST(HttpRequest.BodyPublishers.ofString("{\"action\":\"gpu-reset\"}"))
                .timeout(Duration.ofSeconds(10))
                .build(),
            HttpResponse.BodyHandlers.ofString());

    assertThat(reset.statusCode()).isEqualTo(403);
    assertThat(reset.body())
        .contains("mutually authenticated action channel")
        .contains("not configured on this node")
        .contains("enrolmentToken");
    assertThat(get("/v1/capabilities").statusCode()).isEqualTo(403);

    exporter.channelListening(9401);
    assertThat(get("/v1/capabilities").body()).contains("on port 9401, by the appliance");
  }
}
