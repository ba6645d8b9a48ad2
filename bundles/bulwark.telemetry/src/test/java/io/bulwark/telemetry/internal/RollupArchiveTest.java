package io.bulwark.telemetry.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.bulwark.api.fleet.NodeId;
import io.bulwark.api.telemetry.MinuteRollup;
import io.bulwark.api.telemetry.SeriesId;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RollupArchiveTest {
  private static final long T0 = 1_767_225_600_000L;
  private static final long MINUTE = 60_000;
  private static final long GRACE = 5_000;
  private static final NodeId NODE = NodeId.of("gpu-node-001");
  private static final SeriesId TEMP = SeriesId.of(NODE, 3, "DCGM_FI_DEV_GPU_TEMP");
  private static final SeriesId POWER = SeriesId.of(NODE, SeriesId.NODE_LEVEL, "node_power");

  @TempDir Path dir;
  private final AtomicLong now = new AtomicLong(T0);
  private final Logger readerLog = Logger.getLogger(RollupFileReader.class.getName());
  private final List<String> warnings = new ArrayList<>();
  private final Handler capture =
      new Handler() {
        @Override
        public void publish(LogRecord record) {
          warnings.add(record.getLevel() + " " + record.getMessage());
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
      };

  @BeforeEach
  void captureWarnings() {
    readerLog.addHandler(capture);
  }

  @AfterEach
  void releaseWarnings() {
    readerLog.removeHandler(capture);
  }

  private RollupOptions options(int retentionDays) {
    return new RollupOptions(360, dir, retentionDays, 1);
  }

  private RollupArchive archive(SeriesStore store) {
    return new RollupArchive(store, options(14), GRACE, now::get);
  }

  /** Scrapes both series every 10 s from {@code from} for {@code minutes}, writing as it goes. */
  private static void scrape(
      SeriesStore store, RollupArchive archive, AtomicLong now, long from, int minutes) {
    for (long t = from; t < from + minutes * MINUTE; t += 10_000) {
      now.set(t);
      store.append(TEMP, t, 40 + (t / 10_000) % 7);
      store.append(POWER, t, 1000 + (t / 10_000) % 13);
      archive.write(false);
    }
  }

  private SeriesStore reloaded() {
    SeriesStore store = new SeriesStore(600, 360);
    archive(store).reload();
    return store;
  }

  private List<Path> files() throws IOException {
    try (Stream<Path> listing = Files.list(dir)) {
      return listing.sorted().toList();
    }
  }

  @Test
  void writesClosedMinutesAndReadsThemBackAfterARestart() throws Exception {
    now.set(T0 - 3 * MINUTE);
    SeriesStore store = new SeriesStore(600, 360);
    RollupArchive archive = archive(store);
    scrape(store, archive, now, T0 - 3 * MINUTE, 6);
    now.set(T0 + 3 * MINUTE + GRACE);
    archive.close();

    List<MinuteRollup> written = store.rollup(TEMP, 0);
    assertThat(written).hasSize(6);
    assertThat(files())
        .extracting(path -> path.getFileName().toString())
        .as("one file per hour")
        .satisfiesExactly(
            name -> assertThat(name).startsWith("rollups-20251231-23."),
            name -> assertThat(name).startsWith("rollups-20260101-00."));

    now.set(T0 + 10 * MINUTE);
    SeriesStore restarted = reloaded();
    assertThat(restarted.rollup(TEMP, 0)).isEqualTo(written);
    assertThat(restarted.rollup(POWER, 0)).isEqualTo(store.rollup(POWER, 0)).hasSize(6);
    assertThat(restarted.nodes()).as("not scraped yet in this run").isEmpty();
    assertThat(warnings).isEmpty();
  }

  @Test
  void writesOnlyEveryFlushIntervalAndKeepsMinutesOfSeriesThatStopped() throws Exception {
    SeriesStore store = new SeriesStore(600, 360);
    RollupArchive archive =
        new RollupArchive(store, new RollupOptions(360, dir, 14, 5), GRACE, now::get);
    scrape(store, archive, now, T0, 3);
    assertThat(files()).as("fewer than 5 minutes closed").isEmpty();

    now.set(T0 + 5 * MINUTE + GRACE);
    archive.write(false);
    archive.close();

    assertThat(store.rollup(TEMP, 0)).as("closed by the clock").hasSize(3);
    now.set(T0 + 6 * MINUTE);
    assertThat(reloaded().rollup(TEMP, 0)).isEqualTo(store.rollup(TEMP, 0));
  }

  @Test
  void reloadsOnlyTheMinutesOfTheInMemoryWindow() throws Exception {
    SeriesStore store = new SeriesStore(600, 360);
    RollupArchive archive = archive(store);
    scrape(store, archive, now, T0, 4);
    now.set(T0 + 4 * MINUTE + GRACE);
    archive.close();

    now.set(T0 + 362 * MINUTE);
    assertThat(reloaded().rollup(TEMP, 0))
        .extracting(MinuteRollup::minuteMillis)
        .containsExactly(T0 + 2 * MINUTE, T0 + 3 * MINUTE);
  }

  @Test
  void aTornLastBlockIsReportedWithFileAndOffsetAndSkipped() throws Exception {
    SeriesStore store = new SeriesStore(600, 360);
    RollupArchive archive = archive(store);
    scrape(store, archive, now, T0, 3);
    now.set(T0 + 3 * MINUTE);
    archive.write(true);
    Path file = files().get(0);
    long goodSize = Files.size(file);
    now.set(T0 + 3 * MINUTE + GRACE);
    archive.close();
    assertThat(Files.size(file)).isGreaterThan(goodSize);
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
      channel.truncate(Files.size(file) - 7);
    }

    now.set(T0 + 10 * MINUTE);
    SeriesStore restarted = reloaded();

    assertThat(restarted.rollup(TEMP, 0)).isEqualTo(store.rollup(TEMP, 0).subList(0, 2));
    assertThat(warnings)
        .singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
        .startsWith("WARNING Roll-up file " + file + ": the block at offset " + goodSize + " ")
        .contains("the file ends first");
  }

  @Test
  void garbageAfterTheLastBlockIsReportedAndTheBlocksBeforeAreKept() throws Exception {
    SeriesStore store = new SeriesStore(600, 360);
    RollupArchive archive = archive(store);
    scrape(store, archive, now, T0, 3);
    now.set(T0 + 3 * MINUTE + GRACE);
    archive.close();
    Path file = files().get(0);
    long goodSize = Files.size(file);
    Files.write(file, "MXXXXXXXXXXXXXXX garbage".getBytes(), StandardOpenOption.APPEND);
    Path damaged = dir.resolve(RollupFormat.fileName(Math.floorDiv(T0, 3_600_000L), 7));
    Files.write(damaged, new byte[] {1, 2, 3});

    now.set(T0 + 10 * MINUTE);
    SeriesStore restarted = reloaded();

    assertThat(restarted.rollup(TEMP, 0)).isEqualTo(store.rollup(TEMP, 0)).hasSize(3);
    assertThat(warnings)
        .anySatisfy(
            warning ->
                assertThat(warning)
                    .startsWith(
                        "WARNING Roll-up file " + file + ": the block at offset " + goodSize));
    assertThat(warnings)
        .anySatisfy(
            warning ->
                assertThat(warning)
                    .startsWith("WARNING Roll-up file " + damaged + ": the block at offset 0 "));
  }

  @Test
  void aBitFlipFailsTheCrcAndEndsTheFileThere() throws Exception {
    SeriesStore store = new SeriesStore(600, 360);
    RollupArchive archive = archive(store);
    scrape(store, archive, now, T0, 2);
    now.set(T0 + 2 * MINUTE + GRACE);
    archive.close();
    Path file = files().get(0);
    byte[] bytes = Files.readAllBytes(file);
    bytes[bytes.length - 10] ^= 0x40;
    Files.write(file, bytes);

    now.set(T0 + 10 * MINUTE);
    SeriesStore restarted = reloaded();

    assertThat(restarted.rollup(TEMP, 0)).hasSize(1);
    assertThat(warnings)
        .singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
        .contains(file.toString())
        .contains("its CRC does not match");
  }

  @Test
  void deletesFilesPastTheirRetentionAndNothingElse() throws Exception {
    long hour = Math.floorDiv(T0, 3_600_000L);
    Path old = Files.writeString(dir.resolve(RollupFormat.fileName(hour - 15 * 24, 1)), "x");
    Path edge = Files.writeString(dir.resolve(RollupFormat.fileName(hour - 14 * 24, 1)), "x");
    Path recent = Files.writeString(dir.resolve(RollupFormat.fileName(hour - 13 * 24, 1)), "x");
    Path foreign = Files.writeString(dir.resolve("notes.txt"), "x");

    new RollupArchive(new SeriesStore(10, 60), options(14), GRACE, now::get).deleteExpired();

    assertThat(old).doesNotExist();
    assertThat(edge).exists();
    assertThat(recent).exists();
    assertThat(foreign).exists();
  }

  @Test
  void aFolderThatCannotBeWrittenLosesNothingInMemoryAndNeverThrows() throws Exception {
    Path notAFolder = Files.writeString(dir.resolve("occupied"), "x");
    SeriesStore store = new SeriesStore(600, 360);
    RollupArchive archive =
        new RollupArchive(store, new RollupOptions(360, notAFolder, 14, 1), GRACE, now::get);

    scrape(store, archive, now, T0, 3);
    now.set(T0 + 3 * MINUTE + GRACE);
    archive.close();

    assertThat(store.rollup(TEMP, 0)).hasSize(3);
    assertThat(Files.readString(notAFolder)).isEqualTo("x");
  }

  @Test
  void fileNamesCarryTheirUtcHour() {
    long hour = Math.floorDiv(T0, 3_600_000L) + 13;

    assertThat(RollupFormat.fileName(hour, 42)).isEqualTo("rollups-20260101-13.42.rollup");
    assertThat(RollupFormat.hourOf("rollups-20260101-13.42.rollup")).isEqualTo(hour);
    assertThat(RollupFormat.hourOf("rollups-2026.rollup")).isEqualTo(-1);
    assertThat(RollupFormat.hourOf("other-20260101-13.42.rollup")).isEqualTo(-1);
  }
}
