package io.bulwark.telemetry.internal;

import io.bulwark.api.fleet.NodeId;
import io.bulwark.api.telemetry.Rollup;
import io.bulwark.api.telemetry.SeriesId;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.ByteBuffer;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.stream.Stream;

/**
 * Archives the closed minute roll-ups of every series of a {@link SeriesStore} to one file per hour
 * in the roll-up folder, reads the last hours back on start, and deletes files past their
 * retention. All writing happens on one writer thread of its own, never on an event loop; the
 * writer closes the minutes that ended more than a grace period ago, so that a late scrape of a
 * minute still counts in it. A write that fails is logged and retried into a new file at the next
 * turn; it never stops telemetry.
 */
final class RollupArchive implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger(RollupArchive.class.getName());
  private static final long TURN_MILLIS = 5_000;
  private static final long SUMMARY_BUDGET_MILLIS = 1_000;
  private static final long NONE = Long.MIN_VALUE;

  private final SeriesStore store;
  private final RollupOptions options;
  private final long graceMillis;
  private final LongSupplier clock;
  private final RollupSeriesTable table = new RollupSeriesTable();
  private final HistorySummaries history;
  private final ByteBuffer block =
      ByteBuffer.allocate(
          RollupFormat.MINUTES_HEAD_BYTES
              + RollupFormat.RECORDS_PER_BLOCK * RollupFormat.RECORD_BYTES);
  private ScheduledExecutorService writerThread;
  private RollupFileWriter file;
  private long fileHour = NONE;
  private long nextMinute;
  private String failure = "";
  private long failureLoggedMillis;

  RollupArchive(SeriesStore store, RollupOptions options, long graceMillis, LongSupplier clock) {
    if (!options.archived()) {
      throw new IllegalArgumentException("roll-ups are not archived with " + options);
    }
    this.store = store;
    this.options = options;
    this.graceMillis = graceMillis;
    this.clock = clock;
    this.nextMinute = MinuteRollups.minuteOf(clock.getAsLong());
    this.history = new HistorySummaries(options.folder(), options.retentionDays());
  }

  /**
   * Reads the roll-ups of the last {@link RollupOptions#minutes()} back into the store. Scrapes may
   * run meanwhile: a restored minute never replaces the minute being filled. Unreadable files and
   * torn blocks are logged and skipped. Returns how many minute records were read.
   */
  long reload() {
    long now = clock.getAsLong();
    long fromHour = Math.floorDiv(MinuteRollups.minuteOf(now) - store.rollupMinutes(), 60);
    return new RollupRestore(store, options.folder()).restore(files(fromHour, Long.MAX_VALUE), now);
  }

  /**
   * Starts the writer thread: it first reads the last hours back ({@link #reload}), deletes expired
   * files, then writes closed minutes every {@link RollupOptions#flushMinutes}.
   */
  synchronized void start() {
    writerThread =
        Executors.newSingleThreadScheduledExecutor(
            runnable -> {
              Thread thread = new Thread(runnable, "bulwark-telemetry-rollups");
              thread.setDaemon(true);
              return thread;
            });
    writerThread.execute(this::reload);
    writerThread.execute(this::deleteExpired);
    writerThread.scheduleWithFixedDelay(
        () -> {
          write(false);
          summariseForAWhile();
        },
        TURN_MILLIS,
        TURN_MILLIS,
        TimeUnit.MILLISECONDS);
  }

  /**
   * Builds the history file of one hour whose minutes are all written and that has none yet (see
   * {@link HistorySummaries}); returns the hour built, or -1. Called by tests.
   */
  synchronized long summarise() {
    try {
      return history.buildNext(Math.floorDiv(nextMinute, 60), clock.getAsLong());
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "Could not build the history of an archived hour: {0}", e.toString());
      return -1;
    }
  }

  /**
   * Builds history files for hours that lack one, oldest first, for up to {@link
   * #SUMMARY_BUDGET_MILLIS} of this turn: a catch-up after days of roll-ups without history files
   * takes a minute, not hours, and one turn never holds the writer long.
   */
  private void summariseForAWhile() {
    long deadline = System.nanoTime() + SUMMARY_BUDGET_MILLIS * 1_000_000;
    while (summarise() >= 0 && System.nanoTime() < deadline) {
      // next hour
    }
  }

  /**
   * Adds to {@code into} the ten-minute history of {@code node} from {@code fromMillis} on, for the
   * metrics named; returns where it ends (epoch ms), so that the minutes in memory take over there.
   * Reads files; safe on any thread but not on an event loop.
   */
  long history(
      NodeId node, Set<String> metrics, long fromMillis, Map<SeriesId, List<Rollup>> into) {
    return history.read(node, metrics, fromMillis, into);
  }

  /**
   * Writes the minutes closed since the last write, if {@code now} or at least {@link
   * RollupOptions#flushMinutes} of them are due. Called on the writer thread (and by tests).
   */
  synchronized void write(boolean now) {
    long closable = MinuteRollups.minuteOf(clock.getAsLong() - graceMillis);
    nextMinute = Math.max(nextMinute, closable - store.rollupMinutes());
    if (closable <= nextMinute || (!now && closable - nextMinute < options.flushMinutes())) {
      return;
    }
    try {
      for (; nextMinute < closable; nextMinute++) {
        writeMinute(nextMinute, closable);
      }
      file.force();
      if (!failure.isEmpty()) {
        LOG.log(Level.INFO, "Writing roll-ups to {0} again", file.file());
        failure = "";
      }
    } catch (IOException | RuntimeException e) {
      reportFailure(e);
      closeFile();
      store.forEachSeries((node, gpu, metric, ring) -> ring.closeMinutesBefore(closable));
    }
  }

  /** Logs a failed write: the first of a kind at once, a repeated one once an hour. */
  private void reportFailure(Exception e) {
    long millis = clock.getAsLong();
    if (e.toString().equals(failure) && millis - failureLoggedMillis < RollupFormat.HOUR_MILLIS) {
      return;
    }
    failure = e.toString();
    failureLoggedMillis = millis;
    LOG.log(
        Level.WARNING,
        "Could not write the roll-ups of the minute starting {0} to {1} ({2}); they stay in memory"
            + " for {3} hours and every write, every {4} s, retries with a new file. Check the free"
            + " space and permissions of {5}.",
        Instant.ofEpochMilli(nextMinute * MinuteRollups.MINUTE_MILLIS),
        file == null ? options.folder() : file.file(),
        failure,
        store.rollupMinutes() / 60,
        TURN_MILLIS / 1000,
        options.folder());
  }

  private void writeMinute(long minute, long closable) throws IOException {
    long hour = Math.floorDiv(minute, 60);
    if (file == null || hour != fileHour) {
      openFile(hour);
    }
    table.register(store, file);
    List<SeriesRing> series = table.rings();
    for (int first = 0; first < series.size(); first += RollupFormat.RECORDS_PER_BLOCK) {
      int count = Math.min(RollupFormat.RECORDS_PER_BLOCK, series.size() - first);
      block.clear();
      block.putLong(minute).putInt(first).putInt(count);
      boolean any = false;
      for (int i = first; i < first + count; i++) {
        series.get(i).writeMinute(minute, closable, block);
        any |= block.getChar(block.position() - 2) != 0;
      }
      if (any) {
        file.writeBlock(RollupFormat.MINUTES, block.flip());
      }
    }
  }

  private void openFile(long hour) throws IOException {
    closeFile();
    Files.createDirectories(options.folder());
    long run = clock.getAsLong();
    while (file == null) {
      try {
        file =
            RollupFileWriter.create(
                options.folder().resolve(RollupFormat.fileName(hour, run)), hour);
      } catch (FileAlreadyExistsException e) {
        run++;
      }
    }
    fileHour = hour;
    table.startFile();
    deleteExpired();
  }

  private void closeFile() {
    if (file != null) {
      try {
        file.close();
      } catch (IOException e) {
        LOG.log(Level.WARNING, "Could not close the roll-up file {0}: {1}", file.file(), e);
      }
      file = null;
    }
  }

  /** Deletes the roll-up files older than the retention. */
  synchronized void deleteExpired() {
    long nowHour = Math.floorDiv(clock.getAsLong(), RollupFormat.HOUR_MILLIS);
    List<Path> expired = files(Long.MIN_VALUE, nowHour - 24L * options.retentionDays() - 1);
    int deleted = 0;
    for (Path path : expired) {
      try {
        Files.deleteIfExists(path);
        deleted++;
      } catch (IOException e) {
        LOG.log(Level.WARNING, "Could not delete the expired roll-up file {0}: {1}", path, e);
      }
    }
    deleted += history.deleteBefore(nowHour - 24L * options.retentionDays());
    if (deleted > 0) {
      LOG.log(
          Level.INFO,
          "Deleted {0} roll-up files older than {1} days from {2}",
          deleted,
          options.retentionDays(),
          options.folder());
    }
  }

  /** Returns the roll-up files of the hours {@code fromHour} to {@code toHour}, sorted by name. */
  private List<Path> files(long fromHour, long toHour) {
    if (!Files.isDirectory(options.folder())) {
      return List.of();
    }
    try (Stream<Path> listing = Files.list(options.folder())) {
      List<Path> found = new ArrayList<>();
      listing
          .sorted()
          .forEach(
              path -> {
                long hour = RollupFormat.hourOf(path.getFileName().toString());
                if (hour >= 0 && hour >= fromHour && hour <= toHour) {
                  found.add(path);
                }
              });
      return found;
    } catch (IOException e) {
      LOG.log(Level.WARNING, "Could not list the roll-up folder {0}: {1}", options.folder(), e);
      return List.of();
    }
  }

  /** Stops the writer thread, then writes the minutes closed by now and closes the file. */
  @Override
  public void close() {
    ScheduledExecutorService thread;
    synchronized (this) {
      thread = writerThread;
    }
    if (thread != null) {
      thread.shutdown();
      try {
        thread.awaitTermination(10, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    synchronized (this) {
      write(true);
      closeFile();
    }
  }
}
