package io.bulwark.bench.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Given a tiny simulated fleet (3 nodes, 2 per loopback address), when Bulwark's pipeline runs on
 * the benchmark's targets file for a few seconds, then every target is scraped, samples are
 * counted, every detector takes part, and the Prometheus configuration names the same targets file.
 * The benchmark itself runs from run.sh.
 */
class IngestSmokeTest {
  private static final long WAIT_MILLIS = 8_000;

  @Test
  void tinyFleetIsScrapedAndEvaluated(@TempDir Path folder) throws Exception {
    try (SimulatedTargets fleet =
            new SimulatedTargets(folder.resolve("sim"), 3, 2, 2, "none", "counters");
        BulwarkPipeline pipeline =
            new BulwarkPipeline(fleet.targetsFile(), folder.resolve("store"))) {
      String yml = Files.readString(fleet.prometheusFile(), StandardCharsets.UTF_8);
      assertThat(yml).contains(fleet.targetsFile().toString()).contains("scrape_interval: 1000ms");
      assertThat(Files.readString(fleet.targetsFile(), StandardCharsets.UTF_8))
          .contains("\"127.0.0.1:")
          .contains("/nodes/gpu-a0000-002/metrics")
          .contains("\"127.0.0.2:")
          .contains("/nodes/gpu-a0001-001/metrics");
      assertThat(pipeline.detectorNames()).hasSizeGreaterThanOrEqualTo(15);

      long deadline = System.currentTimeMillis() + WAIT_MILLIS;
      IngestTally.Snapshot snapshot = pipeline.snapshot();
      while (System.currentTimeMillis() < deadline && snapshot.up() < 3) {
        Thread.sleep(100);
        snapshot = pipeline.snapshot();
      }
      assertThat(snapshot.up()).isEqualTo(3);
      // The first scrapes of a fresh JVM (classes loading, nothing compiled yet) can miss their
      // 800 ms on a busy machine; once every target has answered, none may fail.
      long failuresOnceUp = snapshot.failures();
      long scrapesOnceUp = snapshot.scrapes();
      deadline = System.currentTimeMillis() + WAIT_MILLIS;
      while (System.currentTimeMillis() < deadline
          && (snapshot.scrapes() < scrapesOnceUp + 6 || snapshot.evaluations() < 1)) {
        Thread.sleep(100);
        snapshot = pipeline.snapshot();
      }
      assertThat(snapshot.failures())
          .as("failed scrapes once every target answered")
          .isEqualTo(failuresOnceUp);
      assertThat(snapshot.scrapes()).isGreaterThanOrEqualTo(scrapesOnceUp + 6);
      assertThat(snapshot.series()).as("34 fields of 2 GPUs on 3 nodes").isEqualTo(3 * 2 * 34);
      assertThat(snapshot.intervalMillis()).isEqualTo(1000);
      assertThat(snapshot.samples()).isGreaterThanOrEqualTo(2 * snapshot.series());
      assertThat(snapshot.evaluations()).isGreaterThanOrEqualTo(1);
      assertThat(snapshot.capacity().gpusInstalled()).isEqualTo(6);
    }
  }
}
