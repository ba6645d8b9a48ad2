package io.bulwark.telemetry.internal;

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
 * Measures the cost of filing samples into the series of a node without parsing: one operation is
 * one sample appended to one of 240 series (8 GPUs x 30 fields), one second after the previous
 * sample of that series, with minute roll-ups off ({@code rollupMinutes=0}) and on (6 hours). Run
 * it as docs/benchmarks.md says; it never runs in {@code mvn verify}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@OperationsPerInvocation(SeriesAppendBenchmark.SERIES)
@Fork(1)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 3)
public class SeriesAppendBenchmark {
  static final int SERIES = 240;

  @Param({"0", "360"})
  public int rollupMinutes;

  private SeriesRing[] rings;
  private long millis;

  /** Creates the series. */
  @Setup
  public void setUp() {
    rings = new SeriesRing[SERIES];
    for (int i = 0; i < SERIES; i++) {
      rings[i] = new SeriesRing(600, rollupMinutes);
    }
    millis = 1_700_000_000_000L;
  }

  /** One scrape's worth of appends, one second after the previous one. */
  @Benchmark
  public int appendOneScrape() {
    millis += 1000;
    int filed = 0;
    for (int i = 0; i < SERIES; i++) {
      if (rings[i].append(millis, i * 0.5 + (millis & 63))) {
        filed++;
      }
    }
    return filed;
  }
}
