package io.bulwark.telemetry.internal;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.bulwark.api.fleet.Gpu;
import io.bulwark.api.fleet.NodeId;
import io.bulwark.api.telemetry.DcgmField;
import io.bulwark.api.telemetry.ScrapeTarget;
import io.bulwark.api.telemetry.SeriesId;
import io.bulwark.lib.exposition.ExpositionParser;
import io.bulwark.testing.DcgmExporterPage;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DcgmSampleFilerTest {
  private static final NodeId NODE = NodeId.of("gpu-node-007");
  private final SeriesStore store = new SeriesStore(20);
  private final ExpositionParser parser = new ExpositionParser();

  private DcgmSampleFiler scrape(ScrapeTarget target, String page, long millis) {
    DcgmSampleFiler filer = new DcgmSampleFiler(store, target);
    scrape(filer, page, millis);
    return filer;
  }

  private NodeId nodeOf(ScrapeTarget target, String page) {
    return scrape(new DcgmSampleFiler(store, target), page, 1);
  }

  private NodeId scrape(DcgmSampleFiler filer, String page, long millis) {
    filer.begin(millis);
    parser.parse(page.getBytes(UTF_8), filer);
    return filer.finish();
  }

  private static ScrapeTarget target(String address, Map<String, String> labels) {
    return new ScrapeTarget(address, null, null, labels);
  }

  @Test
  void filesEveryGpuSeriesOfARealPageAtTheScrapeTime() {
    DcgmSampleFiler filer =
        scrape(
            target("10.0.0.7:9400", Map.of()),
            DcgmExporterPage.render("gpu-node-007", 8, 3),
            1_000);

    assertThat(filer.filed()).isEqualTo(240);
    assertThat(store.nodes()).containsExactly(NODE);
    assertThat(store.metrics(NODE))
        .hasSize(30)
        .contains(DcgmField.GPU_TEMP, DcgmField.CLOCKS_EVENT_REASONS)
        .doesNotContain(DcgmField.CLOCK_THROTTLE_REASONS);
    int tempField = 3;
    assertThat(DcgmExporterPage.FIELDS.get(tempField).name()).isEqualTo(DcgmField.GPU_TEMP);
    assertThat(store.latest(SeriesId.of(NODE, 5, DcgmField.GPU_TEMP)).value())
        .isEqualTo(DcgmExporterPage.value(tempField, 5, 3));
    assertThat(store.latest(SeriesId.of(NODE, 5, DcgmField.GPU_TEMP)).timestampMillis())
        .isEqualTo(1_000);
    assertThat(store.reportedGpus(NODE))
        .hasSize(8)
        .first()
        .isEqualTo(new Gpu(0, DcgmExporterPage.uuid("gpu-node-007", 0), "NVIDIA H100 80GB HBM3"));
    assertThat(store.lastScrapeMillis(NODE)).hasValue(1_000);
  }

  @Test
  void aRepeatedPageIsFiledThroughTheSeriesFoundForTheFirstOne() {
    DcgmSampleFiler filer = new DcgmSampleFiler(store, target("10.0.0.7:9400", Map.of()));
    for (int round = 1; round <= 3; round++) {
      scrape(filer, DcgmExporterPage.render("gpu-node-007", 8, round), round * 1_000L);
      assertThat(filer.filed()).as("round %d", round).isEqualTo(240);
    }

    int tempField = 3;
    assertThat(store.window(SeriesId.of(NODE, 5, DcgmField.GPU_TEMP), 0).values())
        .containsExactly(
            DcgmExporterPage.value(tempField, 5, 1),
            DcgmExporterPage.value(tempField, 5, 2),
            DcgmExporterPage.value(tempField, 5, 3));
    assertThat(store.window(SeriesId.of(NODE, 2, DcgmField.CLOCKS_EVENT_REASONS), 0).size())
        .isEqualTo(3);
    assertThat(store.reportedGpus(NODE)).hasSize(8);
    assertThat(store.lastScrapeMillis(NODE)).hasValue(3_000);
  }

  @Test
  void aGpuThatLeavesTheRepeatedPageIsNoLongerReported() {
    DcgmSampleFiler filer = new DcgmSampleFiler(store, target("10.0.0.7:9400", Map.of()));
    scrape(filer, DcgmExporterPage.render("gpu-node-007", 8, 1), 1_000);
    scrape(filer, DcgmExporterPage.render("gpu-node-007", 8, 2), 2_000);
    scrape(filer, DcgmExporterPage.render("gpu-node-007", 7, 3), 3_000);

    assertThat(filer.filed()).isEqualTo(210);
    assertThat(store.reportedGpus(NODE))
        .extracting(Gpu::index)
        .containsExactly(0, 1, 2, 3, 4, 5, 6);
    assertThat(store.latest(SeriesId.of(NODE, 7, DcgmField.GPU_TEMP)).timestampMillis())
        .isEqualTo(2_000);
  }

  @Test
  void repeatedLinesOfOtherMetricsAndBadGpuLabelsAreCountedEveryPage() {
    DcgmSampleFiler filer = new DcgmSampleFiler(store, target("h:9400", Map.of()));
    String page =
        "go_goroutines 12\n"
            + "DCGM_FI_DEV_GPU_TEMP{gpu=\"x\",Hostname=\"gpu-node-007\"} 40\n"
            + "DCGM_FI_DEV_GPU_TEMP{gpu=\"0\",Hostname=\"gpu-node-007\"} 41\n";
    scrape(filer, page, 1_000);
    scrape(filer, page, 2_000);

    assertThat(filer.ignored()).isEqualTo(1);
    assertThat(filer.badGpuLabel()).isEqualTo(1);
    assertThat(filer.filed()).isEqualTo(1);
    scrape(filer, page, 2_000);
    assertThat(filer.outOfOrder()).as("same time again, through the handle").isEqualTo(1);
  }

  @Test
  void twoHostnamesOnOnePageStayTwoNodesWhenRepeated() {
    DcgmSampleFiler filer = new DcgmSampleFiler(store, target("h:9400", Map.of()));
    String page =
        "DCGM_FI_DEV_GPU_TEMP{gpu=\"0\",UUID=\"GPU-1\",Hostname=\"gpu-node-007\"} 40\n"
            + "DCGM_FI_DEV_GPU_TEMP{gpu=\"0\",UUID=\"GPU-2\",Hostname=\"gpu-node-008\"} 50\n"
            + "DCGM_FI_DEV_GPU_TEMP{gpu=\"1\",UUID=\"GPU-3\",Hostname=\"gpu-node-007\"} 41\n";
    scrape(filer, page, 1_000);
    NodeId first = scrape(filer, page, 2_000);

    NodeId other = NodeId.of("gpu-node-008");
    assertThat(first).isEqualTo(NODE);
    assertThat(store.reportedGpus(NODE)).extracting(Gpu::uuid).containsExactly("GPU-1", "GPU-3");
    assertThat(store.reportedGpus(other)).extracting(Gpu::uuid).containsExactly("GPU-2");
    assertThat(store.lastScrapeMillis(other)).hasValue(2_000);
    assertThat(store.window(SeriesId.of(other, 0, DcgmField.GPU_TEMP), 0).size()).isEqualTo(2);
  }

  @Test
  void filesTheOldThrottleReasonsNameUnderClocksEventReasons() {
    String page = "DCGM_FI_DEV_CLOCK_THROTTLE_REASONS{gpu=\"0\",Hostname=\"gpu-node-007\"} 64\n";
    scrape(target("h:9400", Map.of()), page, 5);
    String newer = "DCGM_FI_DEV_CLOCKS_EVENT_REASONS{gpu=\"0\",Hostname=\"gpu-node-007\"} 8\n";
    scrape(target("h:9400", Map.of()), newer, 6);

    assertThat(store.window(SeriesId.of(NODE, 0, DcgmField.CLOCKS_EVENT_REASONS), 0).values())
        .containsExactly(64, 8);
    assertThat(store.latest(SeriesId.of(NODE, 0, DcgmField.CLOCK_THROTTLE_REASONS))).isNull();
  }

  @Test
  void namesTheNodeByHostnameThenNodeLabelThenAddress() {
    String withHostname = "DCGM_FI_DEV_GPU_TEMP{gpu=\"0\",Hostname=\"gpu-node-007\"} 40\n";
    String withoutHostname = "DCGM_FI_DEV_GPU_TEMP{gpu=\"0\"} 41\n";

    assertThat(nodeOf(target("10.0.0.5:9400", Map.of("node", "rack1-n5")), withHostname))
        .isEqualTo(NODE);
    assertThat(nodeOf(target("10.0.0.5:9400", Map.of("node", "rack1-n5")), withoutHostname))
        .isEqualTo(NodeId.of("rack1-n5"));
    assertThat(nodeOf(target("10.0.0.5:9400", Map.of()), withoutHostname))
        .isEqualTo(NodeId.of("10.0.0.5"));
    assertThat(
            nodeOf(
                target("10.0.0.6:9400", Map.of()),
                "DCGM_FI_DEV_GPU_TEMP{gpu=\"0\",Hostname=\"\"} 1\n"))
        .isEqualTo(NodeId.of("10.0.0.6"));
    assertThat(store.nodes())
        .extracting(NodeId::value)
        .containsExactlyInAnyOrder("gpu-node-007", "rack1-n5", "10.0.0.5", "10.0.0.6");
  }

  @Test
  void filesSamplesWithoutGpuLabelAsNodeLevelAndIgnoresOtherMetrics() {
    DcgmSampleFiler filer =
        scrape(
            target("h:9400", Map.of()),
            """
        DCGM_FI_DEV_GPU_TEMP{gpu="0",Hostname="gpu-node-007"} 40
        DCGM_FI_DEV_NVSWITCH_TEMP{Hostname="gpu-node-007"} 55
        go_goroutines 17
        process_cpu_seconds_total{Hostname="gpu-node-007"} 3
        """,
            10);

    assertThat(filer.filed()).isEqualTo(2);
    assertThat(filer.ignored()).isEqualTo(2);
    assertThat(
            store
                .latest(SeriesId.of(NODE, SeriesId.NODE_LEVEL, "DCGM_FI_DEV_NVSWITCH_TEMP"))
                .value())
        .isEqualTo(55);
    assertThat(store.metrics(NODE))
        .containsExactly("DCGM_FI_DEV_GPU_TEMP", "DCGM_FI_DEV_NVSWITCH_TEMP");
    assertThat(store.reportedGpus(NODE)).extracting(Gpu::index).containsExactly(0);
  }

  @Test
  void usesTheExpositionTimestampWhenThePageGivesOne() {
    scrape(
        target("h:9400", Map.of()),
        "DCGM_FI_DEV_GPU_TEMP{gpu=\"1\",Hostname=\"gpu-node-007\"} 40 777\n",
        999);

    assertThat(store.latest(SeriesId.of(NODE, 1, DcgmField.GPU_TEMP)).timestampMillis())
        .isEqualTo(777);
    assertThat(store.lastScrapeMillis(NODE)).hasValue(999);
  }

  @Test
  void dropsSamplesWithABrokenGpuLabelOrAnOldTimestamp() {
    DcgmSampleFiler filer = new DcgmSampleFiler(store, target("h:9400", Map.of()));
    scrape(filer, "DCGM_FI_DEV_GPU_TEMP{gpu=\"0\",Hostname=\"gpu-node-007\"} 40 500\n", 1);
    scrape(
        filer,
        """
        DCGM_FI_DEV_GPU_TEMP{gpu="x",Hostname="gpu-node-007"} 1
        DCGM_FI_DEV_GPU_TEMP{gpu="99999",Hostname="gpu-node-007"} 1
        DCGM_FI_DEV_GPU_TEMP{gpu="0",Hostname="gpu-node-007"} 41 400
        """,
        2);

    assertThat(filer.badGpuLabel()).isEqualTo(2);
    assertThat(filer.outOfOrder()).isEqualTo(1);
    assertThat(filer.filed()).isZero();
    assertThat(store.window(SeriesId.of(NODE, 0, DcgmField.GPU_TEMP), 0).values())
        .containsExactly(40);
  }

  @Test
  void reportedGpusFollowTheLatestScrape() {
    DcgmSampleFiler filer = new DcgmSampleFiler(store, target("h:9400", Map.of()));
    scrape(filer, DcgmExporterPage.render("gpu-node-007", 8, 1), 1_000);
    String sevenGpus =
        DcgmExporterPage.render("gpu-node-007", 8, 2)
            .lines()
            .filter(line -> !line.contains("gpu=\"6\""))
            .reduce("", (page, line) -> page + line + "\n");
    scrape(filer, sevenGpus, 2_000);

    assertThat(store.reportedGpus(NODE))
        .extracting(Gpu::index)
        .containsExactly(0, 1, 2, 3, 4, 5, 7);
    assertThat(store.lastScrapeMillis(NODE)).hasValue(2_000);
  }

  @Test
  void aPageWithoutDcgmSamplesRefreshesTheNodeTheTargetLastReported() {
    DcgmSampleFiler filer = new DcgmSampleFiler(store, target("10.0.0.7:9400", Map.of()));
    scrape(filer, DcgmExporterPage.render("gpu-node-007", 2, 1), 1_000);

    NodeId node = scrape(filer, "# nothing to report\n", 2_000);

    assertThat(node).isEqualTo(NODE);
    assertThat(store.reportedGpus(NODE)).isEmpty();
    assertThat(store.lastScrapeMillis(NODE)).hasValue(2_000);
    assertThat(store.nodes()).containsExactly(NODE);
  }

  @Test
  void aNewTargetWithoutDcgmSamplesCreatesNoNode() {
    assertThat(nodeOf(target("10.0.0.8:9100", Map.of()), "node_load1 0.5\n")).isNull();
    assertThat(store.nodes()).isEmpty();
  }

  @Test
  void readsTodaysLowerCaseHostnameLabelAndTheOlderSpelling() {
    // dcgm-exporter's main branch writes "hostname"; releases before it wrote "Hostname".
    String today = "DCGM_FI_DEV_GPU_TEMP{gpu=\"0\",hostname=\"gpu-node-007\"} 40\n";
    String older = "DCGM_FI_DEV_GPU_TEMP{gpu=\"1\",Hostname=\"gpu-node-008\"} 41\n";

    assertThat(nodeOf(target("127.0.0.1:9400", Map.of()), today)).isEqualTo(NODE);
    assertThat(nodeOf(target("127.0.0.1:9401", Map.of()), older))
        .isEqualTo(NodeId.of("gpu-node-008"));
    assertThat(store.nodes()).extracting(NodeId::value).doesNotContain("127.0.0.1");
  }

  @Test
  void dcgmStringBlanksInHostnameUuidAndModelAreNoLabel() {
    String page =
        "DCGM_FI_DEV_GPU_TEMP{gpu=\"0\",UUID=\"<<<NOT_SUPPORTED>>>\","
            + "modelName=\"<<<NULL>>>\",hostname=\"<<<NOT_FOUND>>>\"} 40\n";

    assertThat(nodeOf(target("10.0.0.9:9400", Map.of("node", "rack2-n9")), page))
        .isEqualTo(NodeId.of("rack2-n9"));
    assertThat(store.reportedGpus(NodeId.of("rack2-n9"))).containsExactly(new Gpu(0, "", ""));
  }

  @Test
  void dcgmBlankValuesOfEveryKindAreCountedAndNeverFiled() {
    // The sentinels of DCGM's dcgm_structs.h as dcgm-exporter prints them: int64 blanks
    // (0x7ffffffffffffff0 up; 9223372036854775794 is the sample in dcgm-exporter's README), int32
    // blanks (0x7ffffff0 to 0x7ffffff3), double blanks (2^47 up), and NaN.
    String host = ",hostname=\"gpu-node-007\"} ";
    String page =
        "DCGM_FI_DEV_GPU_TEMP{gpu=\"0\""
            + host
            + "9223372036854775794\n"
            + "DCGM_FI_DEV_XID_ERRORS{gpu=\"0\""
            + host
            + "9223372036854775792\n"
            + "DCGM_FI_DEV_CLOCKS_EVENT_REASONS{gpu=\"0\""
            + host
            + "9223372036854775795\n"
            + "DCGM_FI_DEV_PCIE_LINK_WIDTH{gpu=\"0\""
            + host
            + "2147483632\n"
            + "DCGM_FI_DEV_MEMORY_TEMP{gpu=\"0\""
            + host
            + "2147483634\n"
            + "DCGM_FI_DEV_POWER_USAGE{gpu=\"0\""
            + host
            + "140737488355328.000000\n"
            + "DCGM_FI_PROF_SM_ACTIVE{gpu=\"0\""
            + host
            + "140737488355330.000000\n"
            + "DCGM_FI_DEV_SM_CLOCK{gpu=\"0\""
            + host
            + "NaN\n"
            + "DCGM_FI_DEV_GPU_TEMP{gpu=\"1\""
            + host
            + "45\n"
            + "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION{gpu=\"1\""
            + host
            + "2147483700\n"
            + "DCGM_FI_DEV_NVLINK_BANDWIDTH_TOTAL{gpu=\"1\""
            + host
            + "140737488355400\n";
    DcgmSampleFiler filer = new DcgmSampleFiler(store, target("10.0.0.7:9400", Map.of()));

    for (int scrape = 1; scrape <= 2; scrape++) {
      scrape(filer, page, scrape * 1_000L);

      assertThat(filer.blanks()).as("scrape %d", scrape).isEqualTo(8);
      assertThat(filer.filed()).as("scrape %d", scrape).isEqualTo(3);
      assertThat(filer.skipped())
          .startsWith("8 blank values (DCGM could not read the field; e.g. DCGM_FI_DEV_GPU_TEMP");
    }
    for (String field :
        new String[] {
          DcgmField.GPU_TEMP,
          DcgmField.XID_ERRORS,
          DcgmField.CLOCKS_EVENT_REASONS,
          DcgmField.PCIE_LINK_WIDTH,
          DcgmField.MEMORY_TEMP,
          DcgmField.POWER_USAGE,
          DcgmField.SM_ACTIVE,
          DcgmField.SM_CLOCK
        }) {
      assertThat(store.latest(SeriesId.of(NODE, 0, field))).as(field).isNull();
    }
    // Readings beyond 2^31 of integer counters, and beyond 2^47 of byte counters, are readings.
    assertThat(store.latest(SeriesId.of(NODE, 1, DcgmField.TOTAL_ENERGY)).value())
        .isEqualTo(2147483700.0);
    assertThat(store.latest(SeriesId.of(NODE, 1, DcgmField.NVLINK_BANDWIDTH_TOTAL)).value())
        .isEqualTo(140737488355400.0);
    assertThat(store.latest(SeriesId.of(NODE, 1, DcgmField.GPU_TEMP)).value()).isEqualTo(45);
  }

  @Test
  void aSeriesThatTurnsBlankKeepsItsLastReadingAndResumesAfter() {
    DcgmSampleFiler filer = new DcgmSampleFiler(store, target("10.0.0.7:9400", Map.of()));
    String line = "DCGM_FI_DEV_GPU_TEMP{gpu=\"0\",Hostname=\"gpu-node-007\"} ";

    scrape(filer, line + "52\n", 1_000);
    scrape(filer, line + "9223372036854775794\n", 2_000);
    assertThat(filer.blanks()).isEqualTo(1);
    scrape(filer, line + "2147483633\n", 3_000);
    scrape(filer, line + "53\n", 4_000);

    assertThat(store.window(SeriesId.of(NODE, 0, DcgmField.GPU_TEMP), 0).values())
        .containsExactly(52, 53);
    assertThat(filer.skipped()).isEmpty();
  }

  @Test
  void dcgm4NamesAreFiledUnderTheNamesBulwarkReadsInTheirUnits() {
    // Names as go-dcgm v1.4611.0 (DCGM 4.6.1) spells them; SM_CLOCK_HERTZ is in Hz, SM_CLOCK in
    // MHz.
    String host = ",hostname=\"gpu-node-007\"} ";
    String page =
        "DCGM_FI_DEV_GPU_TEMP_CELSIUS{gpu=\"0\""
            + host
            + "71\n"
            + "DCGM_FI_DEV_SM_CLOCK_HERTZ{gpu=\"0\""
            + host
            + "1980000000\n"
            + "DCGM_FI_DEV_XID_ERROR{gpu=\"0\""
            + host
            + "79\n"
            + "DCGM_FI_DEV_BOARD_POWER_WATTS{gpu=\"0\""
            + host
            + "612.500000\n"
            + "DCGM_FI_PROF_SM_UTIL_RATIO{gpu=\"0\""
            + host
            + "0.930000\n"
            + "DCGM_FI_DEV_PCIE_LINK_WIDTH{gpu=\"0\""
            + host
            + "16\n";
    DcgmSampleFiler filer = new DcgmSampleFiler(store, target("10.0.0.7:9400", Map.of()));

    for (int scrape = 1; scrape <= 2; scrape++) {
      scrape(filer, page, scrape * 1_000L);
      assertThat(filer.naming()).isEqualTo("DCGM 4.x");
      assertThat(filer.filed()).isEqualTo(6);
    }
    assertThat(store.latest(SeriesId.of(NODE, 0, DcgmField.GPU_TEMP)).value()).isEqualTo(71);
    assertThat(store.latest(SeriesId.of(NODE, 0, DcgmField.SM_CLOCK)).value()).isEqualTo(1980);
    assertThat(store.latest(SeriesId.of(NODE, 0, DcgmField.XID_ERRORS)).value()).isEqualTo(79);
    assertThat(store.latest(SeriesId.of(NODE, 0, DcgmField.POWER_USAGE)).value()).isEqualTo(612.5);
    assertThat(store.latest(SeriesId.of(NODE, 0, DcgmField.SM_ACTIVE)).value()).isEqualTo(0.93);
    assertThat(store.metrics(NODE))
        .doesNotContain("DCGM_FI_DEV_GPU_TEMP_CELSIUS", "DCGM_FI_DEV_SM_CLOCK_HERTZ");
  }

  @Test
  void namingSaysWhichGenerationAPageUses() {
    String older = "DCGM_FI_DEV_GPU_TEMP{gpu=\"0\",Hostname=\"gpu-node-007\"} 40\n";
    String newer = "DCGM_FI_DEV_GPU_TEMP_CELSIUS{gpu=\"1\",hostname=\"gpu-node-007\"} 41\n";
    String shared = "DCGM_FI_DEV_FB_USED{gpu=\"0\",Hostname=\"gpu-node-007\"} 400\n";

    assertThat(scrape(target("a:9400", Map.of()), older, 1).naming()).isEqualTo("DCGM 3.x");
    assertThat(scrape(target("b:9400", Map.of()), newer, 1).naming()).isEqualTo("DCGM 4.x");
    assertThat(scrape(target("c:9400", Map.of()), older + newer, 1).naming())
        .isEqualTo("DCGM 3.x and 4.x");
    assertThat(scrape(target("d:9400", Map.of()), shared, 1).naming()).isEmpty();
  }
}
