package io.bulwark.telemetry.internal;

import static java.nio.charset.StandardCharsets.UTF_8;

import io.bulwark.api.telemetry.ScrapeTarget;
import io.bulwark.lib.exposition.ExpositionParser;
import io.bulwark.lib.exposition.ParseSummary;
import io.bulwark.testing.DcgmExporterPage;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Measures how many samples one thread parses and files per second: a realistic dcgm-exporter page
 * (8 GPUs x 30 fields, HELP and TYPE lines, dcgm-exporter's full label set) is parsed and ingested
 * into the ring buffers, as one scrape does, with minute roll-ups off ({@code rollupHours=0}) and
 * on (6 hours). The score is in samples per second (one operation = one sample). Run it as
 * BENCHMARK.md says; it is not a test and never runs in {@code mvn verify}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@OperationsPerInvocation(DcgmPageBenchmark.SAMPLES_PER_PAGE)
@Fork(1)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 3)
public class DcgmPageBenchmark {
  static final int GPUS = 8;
  static final int SAMPLES_PER_PAGE = GPUS * 30;

  @Param({"0", "6"})
  public int rollupHours;

  private byte[] page;
  private ExpositionParser parser;
  private DcgmSampleFiler filer;
  private long scrapeMillis;

  /** Renders the page and checks that one scrape of it files every sample. */
  @Setup
  public void setUp() {
    page = DcgmExporterPage.render("gpu-node-007", GPUS, 1).getBytes(UTF_8);
    parser = new ExpositionParser();
    filer =
        new DcgmSampleFiler(
            new SeriesStore(600, rollupHours * 60),
            new ScrapeTarget("10.0.0.7:9400", null, null, Map.of()));
    scrapeMillis = 1_700_000_000_000L;
    if (scrape().samples() != SAMPLES_PER_PAGE || filer.filed() != SAMPLES_PER_PAGE) {
      throw new IllegalStateException("the page did not file " + SAMPLES_PER_PAGE + " samples");
    }
  }

  /** One scrape: parse the page and file its samples, one second after the previous scrape. */
  @Benchmark
  public ParseSummary parseAndIngest() {
    return scrape();
  }

  private ParseSummary scrape() {
    scrapeMillis += 1000;
    filer.begin(scrapeMillis);
    ParseSummary summary = parser.parse(page, filer);
    filer.finish();
    return summary;
  }
}
