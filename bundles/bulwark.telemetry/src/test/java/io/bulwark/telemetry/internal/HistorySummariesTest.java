package io.bulwark.telemetry.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.bulwark.api.fleet.NodeId;
import io.bulwark.api.telemetry.Rollup;
import io.bulwark.api.telemetry.SeriesId;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The ten-minute tier: hour files built from the roll-up files once an hour is written, read back
 * per node after a restart, both runs of a killed hour merged, damage reported and left out, and
 * retention applied. The expected buckets are worked out from the samples themselves, not from the
 * code under test.
 */
class HistorySummariesTest {
  private static final long HOUR = 3_600_000;
  private static final long MINUTE = 60_000;
  private static final long T0 = 1_767_225_600_000L; // 2026-01-01T00:00Z
  private static final long GRACE = 5_000;
  private static final NodeId NODE = NodeId.of("gpu-node-001");
  private static final NodeId OTHER = NodeId.of("gpu-node-002");
  private static final String TEMP = "DCGM_FI_DEV_GPU_TEMP";
  private static final String POWER = "DCGM_FI_DEV_POWER_USAGE";

  @TempDir Path dir;
  private final AtomicLong now = new AtomicLong(T0);
  private final Logger log = Logger.getLogger(HistorySummaries.class.getName());
  private final List<String> warnings = new ArrayList<>();
  private final Handler capture =
      new Handler() {
        @Override
        public void publish(LogRecord record) {
          warnings.add(record.getLevel() + " " + new SimpleFormatter().formatMessage(record));
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
      };

  @BeforeEach
  void captureWarnings() {
    log.addHandler(capture);
  }

  @AfterEach
  void releaseWarnings() {
    log.removeHandler(capture);
  }

  private static double temp(long t, int gpu) {
    return 40 + gpu + (t / 10_000) % 7;
  }

  private static double power(long t) {
    return 300 + (t / 10_000) % 13;
  }

  /** An archive whose run starts at the clock's time now. */
  private RollupArchive archive(SeriesStore store) {
    return new RollupArchive(store, new RollupOptions(60, dir, 7, 1), GRACE, now::get);
  }

  /** Two nodes of two GPUs, every 10 s from {@code from} to {@code to}, archived as it goes. */
  private void scrape(SeriesStore store, RollupArchive archive, long from, long to) {
    for (long t = from; t < to; t += 10_000) {
      now.set(t);
      for (NodeId node : List.of(NODE, OTHER)) {
        for (int gpu = 0; gpu < 2; gpu++) {
          store.append(SeriesId.of(node, gpu, TEMP), t, temp(t, gpu));
          store.append(SeriesId.of(node, gpu, POWER), t, power(t));
        }
      }
      archive.write(false);
      archive.summarise();
    }
  }

  /** The ten-minute bucket starting at {@code start}, worked out from the samples. */
  private static Rollup expectedTemp(long start, int gpu, long scrapedFrom, long scrapedTo) {
    double min = Double.MAX_VALUE;
    double max = -Double.MAX_VALUE;
    double sum = 0;
    int n = 0;
    for (long t = Math.max(start, scrapedFrom);
        t < Math.min(start + 10 * MINUTE, scrapedTo);
        t += 10_000) {
      double v = temp(t, gpu);
      min = Math.min(min, v);
      max = Math.max(max, v);
      sum += v;
      n++;
    }
    return new Rollup(start, 10 * MINUTE, min, sum / n, max, n);
  }

  private List<Path> historyFiles() throws IOException {
    try (Stream<Path> listing = Files.list(dir)) {
      return listing
          .filter(p -> p.getFileName().toString().startsWith("history-"))
          .sorted()
          .toList();
    }
  }

  private static void assertClose(List<Rollup> actual, List<Rollup> expected) {
    assertThat(actual).hasSameSizeAs(expected);
    for (int i = 0; i < expected.size(); i++) {
      Rollup a = actual.get(i);
      Rollup e = expected.get(i);
      assertThat(a.startMillis()).as("bucket %d", i).isEqualTo(e.startMillis());
      assertThat(a.spanMillis()).isEqualTo(e.spanMillis());
      assertThat(a.count()).as("samples in bucket %d", i).isEqualTo(e.count());
      assertThat(a.min()).isEqualTo(e.min());
      assertThat(a.max()).isEqualTo(e.max());
      assertThat(a.avg()).isCloseTo(e.avg(), org.assertj.core.data.Offset.offset(1e-4));
    }
  }

  @Test
  void aNodesHoursAreReadBackInTenMinuteBucketsAfterARestartThenTheMinutesInMemory()
      throws Exception {
    long from = T0 - 3 * HOUR;
    long to = T0 + 25 * MINUTE;
    now.set(from);
    SeriesStore store = new SeriesStore(600, 60);
    RollupArchive archive = archive(store);
    scrape(store, archive, from, to);
    archive.close();
    assertThat(historyFiles())
        .extracting(p -> p.getFileName().toString())
        .as("one per hour written whole; not the hour still being filled")
        .containsExactly(
            "history-20251231-21.summary",
            "history-20251231-22.summary",
            "history-20251231-23.summary");

    // A new run: memory holds the last hour's minutes again; the three hours before come from the
    // history files.
    now.set(to + MINUTE);
    SeriesStore restarted = new SeriesStore(600, 60);
    RollupArchive second = archive(restarted);
    second.reload();
    Map<SeriesId, List<Rollup>> history = new HashMap<>();
    long end = second.history(NODE, Set.of(TEMP), from, history);
    assertThat(end).as("where the history files end").isEqualTo(T0);
    restarted.history(NODE, Set.of(TEMP), end, history);

    assertThat(history.keySet())
        .as("only the node and metric asked for")
        .containsExactlyInAnyOrder(SeriesId.of(NODE, 0, TEMP), SeriesId.of(NODE, 1, TEMP));
    for (int gpu = 0; gpu < 2; gpu++) {
      List<Rollup> series = history.get(SeriesId.of(NODE, gpu, TEMP));
      List<Rollup> tenMinutes = series.stream().filter(r -> r.spanMillis() == 10 * MINUTE).toList();
      List<Rollup> expected = new ArrayList<>();
      for (long b = from; b < T0; b += 10 * MINUTE) {
        expected.add(expectedTemp(b, gpu, from, to));
      }
      assertClose(tenMinutes, expected);
      List<Rollup> minutes = series.subList(tenMinutes.size(), series.size());
      assertThat(minutes)
          .as("then the closed minutes of the hour being filled, from memory")
          .hasSize(24)
          .allSatisfy(r -> assertThat(r.spanMillis()).isEqualTo(MINUTE));
      assertThat(minutes.get(0).startMillis()).isEqualTo(T0);
    }
    second.close();
    assertThat(warnings).isEmpty();
  }

  @Test
  void anHourWrittenByTwoRunsAcrossAKillIsOneHourOfHistory() throws Exception {
    long from = T0 - HOUR;
    now.set(from);
    SeriesStore first = new SeriesStore(600, 60);
    RollupArchive killed = archive(first);
    scrape(first, killed, from, from + 25 * MINUTE);
    // kill -9: no close; what the writer forced is what there is (every minute, flushMinutes=1).
    long restart = from + 27 * MINUTE;
    now.set(restart);
    SeriesStore second = new SeriesStore(600, 60);
    RollupArchive archive = archive(second);
    archive.reload();
    scrape(second, archive, restart, T0 + 2 * MINUTE);
    archive.close();

    Map<SeriesId, List<Rollup>> history = new HashMap<>();
    archive(new SeriesStore(600, 60)).history(OTHER, Set.of(TEMP), from, history);
    List<Rollup> buckets = history.get(SeriesId.of(OTHER, 1, TEMP));
    assertThat(buckets).extracting(Rollup::startMillis).hasSize(6);
    // The first run closed 24 whole minutes before it died (the 25th was still within its grace);
    // the second scraped from minute 27 on.
    long killedAt = from + 24 * MINUTE;
    for (int b = 0; b < 6; b++) {
      long start = from + b * 10 * MINUTE;
      Rollup part1 = start < killedAt ? expectedTemp(start, 1, from, killedAt) : null;
      Rollup part2 = start + 10 * MINUTE > restart ? expectedTemp(start, 1, restart, T0) : null;
      long count = (part1 == null ? 0 : part1.count()) + (part2 == null ? 0 : part2.count());
      assertThat(buckets.get(b).count())
          .as("samples of bucket %d from both runs", b)
          .isEqualTo(count);
    }
    assertThat(buckets.get(2).count()).as("the bucket with the gap").isEqualTo(4 * 6 + 3 * 6);
  }

  @Test
  void aDamagedHistoryFileIsReportedAndOnlyItsHourIsLeftOut() throws Exception {
    long from = T0 - 2 * HOUR;
    now.set(from);
    SeriesStore store = new SeriesStore(600, 60);
    RollupArchive archive = archive(store);
    scrape(store, archive, from, T0 + MINUTE);
    archive.close();
    List<Path> files = historyFiles();
    assertThat(files).hasSize(2);
    try (FileChannel channel = FileChannel.open(files.get(0), StandardOpenOption.WRITE)) {
      channel.write(java.nio.ByteBuffer.wrap(new byte[] {0x55, 0x55, 0x55}), 60);
    }
    Map<SeriesId, List<Rollup>> history = new HashMap<>();
    archive(new SeriesStore(600, 60)).history(NODE, Set.of(TEMP, POWER), from, history);
    assertThat(history.get(SeriesId.of(NODE, 0, POWER)))
        .extracting(Rollup::startMillis)
        .as("the second hour only")
        .containsExactly(
            T0 - HOUR,
            T0 - HOUR + 10 * MINUTE,
            T0 - HOUR + 20 * MINUTE,
            T0 - HOUR + 30 * MINUTE,
            T0 - HOUR + 40 * MINUTE,
            T0 - HOUR + 50 * MINUTE);
    assertThat(warnings)
        .anySatisfy(
            w ->
                assertThat(w)
                    .contains("History file")
                    .contains(files.get(0).toString())
                    .contains("damaged at offset"));
  }

  @Test
  void aHalfWrittenFileNeverCountsAndRetentionDeletesOldHistory() throws Exception {
    long from = T0 - 2 * HOUR;
    now.set(from);
    SeriesStore store = new SeriesStore(600, 60);
    RollupArchive archive = archive(store);
    scrape(store, archive, from, T0 + MINUTE);
    archive.close();
    Path torn = dir.resolve(HistoryFile.fileName(Math.floorDiv(T0, HOUR)) + ".tmp");
    Files.write(torn, new byte[] {'H', 0, 0});
    Map<SeriesId, List<Rollup>> history = new HashMap<>();
    assertThat(archive(new SeriesStore(600, 60)).history(NODE, Set.of(TEMP), from, history))
        .isEqualTo(T0);
    assertThat(warnings).isEmpty();

    // Eight days later, with a retention of seven, both hours and the torn file go.
    now.set(T0 + 8 * 24 * HOUR);
    archive(new SeriesStore(600, 60)).deleteExpired();
    assertThat(historyFiles()).isEmpty();
    assertThat(Files.exists(torn)).isFalse();
  }

  @Test
  void folderOfRollupsFromBeforeTheTierIsCaughtUpOneHourPerTurnOldestFirst() throws Exception {
    long from = T0 - 3 * HOUR;
    now.set(from);
    SeriesStore store = new SeriesStore(600, 60);
    RollupArchive archive = archive(store);
    for (long t = from; t < T0 + MINUTE; t += 10_000) {
      now.set(t);
      store.append(SeriesId.of(NODE, 0, TEMP), t, temp(t, 0));
      archive.write(false);
    }
    archive.close();
    assertThat(historyFiles()).isEmpty();
    RollupArchive later = archive(new SeriesStore(600, 60));
    long hour = Math.floorDiv(T0, HOUR);
    assertThat(later.summarise()).isEqualTo(hour - 3);
    assertThat(later.summarise()).isEqualTo(hour - 2);
    assertThat(later.summarise()).isEqualTo(hour - 1);
    assertThat(later.summarise()).as("the hour being filled waits").isEqualTo(-1);
    assertThat(historyFiles()).hasSize(3);
  }

  @Test
  void historyFileNamesCarryTheirUtcHour() {
    long hour = Math.floorDiv(T0, HOUR) - 1;
    assertThat(HistoryFile.fileName(hour)).isEqualTo("history-20251231-23.summary");
    assertThat(HistoryFile.hourOf("history-20251231-23.summary")).isEqualTo(hour);
    assertThat(HistoryFile.hourOf("rollups-20251231-23.1.rollup")).isEqualTo(-1);
    assertThat(HistoryFile.hourOf("history-2025.summary")).isEqualTo(-1);
  }
}
