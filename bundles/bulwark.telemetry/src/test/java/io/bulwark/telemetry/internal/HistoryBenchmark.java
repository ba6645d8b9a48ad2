package io.bulwark.telemetry.internal;

import io.bulwark.api.fleet.NodeId;
import io.bulwark.api.telemetry.Rollup;
import io.bulwark.api.telemetry.SeriesId;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Measures the ten-minute history tier at fleet size: {@code readOneNodeHour} reads the six charted
 * metrics of one node (8 GPUs x 30 fields each) from one hour's history file of {@code nodes} nodes
 * (a node page's 7-day window reads 168 of them); {@code buildOneHour} builds an hour's history
 * file from that hour's roll-up file (what the roll-up writer does once an hour). Run it as
 * docs/benchmarks.md says; it never runs in {@code mvn verify}.
 */
@State(Scope.Benchmark)
@Fork(value = 1, jvmArgsAppend = "-Xmx6g")
@Warmup(iterations = 2)
@Measurement(iterations = 5)
public class HistoryBenchmark {
  static final int GPUS = 8;
  static final int FIELDS = 30;
  static final long HOUR = 490_000;
  static final Set<String> CHARTED =
      Set.of(metric(0), metric(1), metric(2), metric(3), metric(4), metric(5));

  @Param({"2048"})
  public int nodes;

  private Path dir;
  private Path history;
  private Path rollups;
  private int next;

  static String metric(int f) {
    return String.format("DCGM_FI_DEV_FIELD_%02d", f);
  }

  static String node(int n) {
    return String.format("gpu-node-%04d", n);
  }

  /** Writes one hour's roll-up file and its history file for the fleet. */
  @Setup(Level.Trial)
  public void setUp() throws IOException {
    dir = Files.createTempDirectory("bulwark-history-bench");
    List<SeriesId> series = new ArrayList<>();
    for (int n = 0; n < nodes; n++) {
      for (int g = 0; g < GPUS; g++) {
        for (int f = 0; f < FIELDS; f++) {
          series.add(SeriesId.of(NodeId.of(node(n)), g, metric(f)));
        }
      }
    }
    rollups = dir.resolve(RollupFormat.fileName(HOUR, 1));
    try (RollupFileWriter w = RollupFileWriter.create(rollups, HOUR)) {
      for (int first = 0; first < series.size(); first += RollupFormat.RECORDS_PER_BLOCK) {
        int count = Math.min(RollupFormat.RECORDS_PER_BLOCK, series.size() - first);
        w.writeSeries(first, series.subList(first, first + count));
      }
      ByteBuffer block =
          ByteBuffer.allocate(
              RollupFormat.MINUTES_HEAD_BYTES
                  + RollupFormat.RECORDS_PER_BLOCK * RollupFormat.RECORD_BYTES);
      for (int m = 0; m < 60; m++) {
        for (int first = 0; first < series.size(); first += RollupFormat.RECORDS_PER_BLOCK) {
          int count = Math.min(RollupFormat.RECORDS_PER_BLOCK, series.size() - first);
          block.clear();
          block.putLong(HOUR * 60 + m).putInt(first).putInt(count);
          for (int i = 0; i < count; i++) {
            float v = (first + i) % 97 + m;
            block.putFloat(v - 1).putFloat(v).putFloat(v + 1).putChar((char) 60);
          }
          w.writeBlock(RollupFormat.MINUTES, block.flip());
        }
      }
      w.force();
    }
    new HistorySummaries(dir, 1_000_000).build(HOUR, List.of(rollups));
    history = dir.resolve(HistoryFile.fileName(HOUR));
  }

  /** Removes the files. */
  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    try (Stream<Path> walk = Files.walk(dir)) {
      for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }

  /** One node's charted metrics from one hour's history file. */
  @Benchmark
  @BenchmarkMode(Mode.AverageTime)
  @OutputTimeUnit(TimeUnit.MICROSECONDS)
  public int readOneNodeHour() throws IOException {
    next = (next + 7919) % nodes;
    Map<SeriesId, List<Rollup>> into = new HashMap<>();
    HistoryFile.read(history, NodeId.of(node(next)), CHARTED, 0, into);
    return into.size();
  }

  /** One hour's history file built from its roll-up file. */
  @Benchmark
  @BenchmarkMode(Mode.SingleShotTime)
  @OutputTimeUnit(TimeUnit.MILLISECONDS)
  @Warmup(iterations = 1)
  @Measurement(iterations = 3)
  public long buildOneHour() throws IOException {
    new HistorySummaries(dir, 1_000_000).build(HOUR, List.of(rollups));
    return Files.size(history);
  }
}
