package io.bulwark.bench.ingest;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Set;

/**
 * Runs Bulwark's ingest path ({@link BulwarkPipeline}) on the targets of a {@code file_sd} file
 * until it is stopped, and prints one {@code TALLY} line a second with the running totals (scrapes,
 * samples ingested, failures, evaluations) and the samples ingested per second since the previous
 * line. When the file named by {@code --heap-trigger} appears, it collects the heap fully and
 * prints one {@code HEAP} line with the heap in use and the bytes per series kept.
 */
public final class BulwarkMain {
  private BulwarkMain() {}

  public static void main(String[] args) throws Exception {
    Flags flags = Flags.parse(args, Set.of("file-sd", "data", "heap-trigger"));
    Path fileSd = Path.of(flags.text("file-sd", "target/bench/targets.json"));
    String dataFlag = flags.text("data", "");
    Path data =
        dataFlag.isEmpty() ? Files.createTempDirectory("bulwark-bench-store") : Path.of(dataFlag);
    Path trigger = Path.of(flags.text("heap-trigger", "target/bench/heap-now"));
    BulwarkPipeline pipeline = new BulwarkPipeline(fileSd, data);
    Runtime.getRuntime().addShutdownHook(new Thread(pipeline::close));
    System.out.println(
        "DETECTORS count="
            + pipeline.detectorNames().size()
            + " names="
            + String.join(",", pipeline.detectorNames()));
    System.out.println("BASELINE heap_after_gc=" + pipeline.baselineHeapBytes());
    ThreadCpu cpu = new ThreadCpu();
    IngestTally.Snapshot previous = pipeline.snapshot();
    boolean heapPrinted = false;
    while (true) {
      Thread.sleep(1000);
      IngestTally.Snapshot now = pipeline.snapshot();
      StringBuilder roles = new StringBuilder();
      cpu.millisByRole()
          .forEach((role, ms) -> roles.append(' ').append(role).append("_cpu_ms=").append(ms));
      System.out.println(tallyLine(now, previous) + roles);
      previous = now;
      if (!heapPrinted && Files.exists(trigger)) {
        // Each detector's last evaluation, read before the full collection below can slow one.
        StringBuilder detectors = new StringBuilder("DETECTOR_MS");
        pipeline
            .detectorMillis()
            .forEach(
                (name, ms) ->
                    detectors.append(' ').append(name).append('=').append(Math.round(ms)));
        System.out.println(detectors);
        long used = HeapReading.usedAfterFullGc();
        IngestTally.Snapshot counted = pipeline.snapshot();
        long kept = used - pipeline.baselineHeapBytes();
        System.out.println(
            "HEAP used_after_gc="
                + used
                + " baseline="
                + pipeline.baselineHeapBytes()
                + " series="
                + counted.series()
                + " bytes_per_series="
                + (counted.series() == 0 ? 0 : kept / counted.series()));

        heapPrinted = true;
      }
    }
  }

  private static String tallyLine(IngestTally.Snapshot now, IngestTally.Snapshot previous) {
    double seconds = Math.max(1, now.atMillis() - previous.atMillis()) / 1000.0;
    return String.format(
        Locale.ROOT,
        "TALLY t_ms=%d scrapes=%d samples=%d failures=%d evaluations=%d targets=%d up=%d"
            + " series=%d samples_per_s=%.0f gpus=%d gpus_healthy=%d heap_used=%d interval_ms=%d",
        now.atMillis(),
        now.scrapes(),
        now.samples(),
        now.failures(),
        now.evaluations(),
        now.targets(),
        now.up(),
        now.series(),
        (now.samples() - previous.samples()) / seconds,
        now.capacity().gpusInstalled(),
        now.capacity().gpusHealthy(),
        HeapReading.usedNow(),
        now.intervalMillis());
  }
}
