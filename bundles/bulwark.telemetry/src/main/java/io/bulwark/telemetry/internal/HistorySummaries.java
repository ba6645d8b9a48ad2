package io.bulwark.telemetry.internal;

import io.bulwark.api.fleet.NodeId;
import io.bulwark.api.telemetry.Rollup;
import io.bulwark.api.telemetry.SeriesId;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The ten-minute tier of history ({@link HistoryFile}): once every minute of an hour is in its
 * roll-up files, builds that hour's history file from them (all the files of the hour, one per run
 * that wrote it), and reads a node's buckets back for a window of days. Builds run on the roll-up
 * writer thread, one hour per turn, oldest missing first, so a folder of roll-up files from before
 * this tier existed is caught up within the retention without a burst. Reads may run on any thread.
 * A file that cannot be read or built is logged once and left out; it never stops telemetry.
 */
final class HistorySummaries {
  private static final System.Logger LOG = System.getLogger(HistorySummaries.class.getName());

  private final Path folder;
  private final int retentionDays;
  private final Set<Long> failed = new TreeSet<>();

  HistorySummaries(Path folder, int retentionDays) {
    this.folder = folder;
    this.retentionDays = retentionDays;
  }

  /**
   * Builds the history file of the oldest hour before {@code completeBeforeHour} (epoch hours) and
   * within the retention that has roll-up files but no history file yet. Returns the hour built, or
   * -1 if none was due.
   */
  long buildNext(long completeBeforeHour, long nowMillis) {
    long oldest = Math.floorDiv(nowMillis, RollupFormat.HOUR_MILLIS) - 24L * retentionDays;
    TreeMap<Long, List<Path>> rollups = new TreeMap<>();
    Set<Long> built = new TreeSet<>();
    for (Path path : list()) {
      String name = path.getFileName().toString();
      long hour = RollupFormat.hourOf(name);
      if (hour >= oldest && hour < completeBeforeHour) {
        rollups.computeIfAbsent(hour, h -> new ArrayList<>()).add(path);
      }
      long summarised = HistoryFile.hourOf(name);
      if (summarised >= 0) {
        built.add(summarised);
      }
    }
    for (Map.Entry<Long, List<Path>> hour : rollups.entrySet()) {
      if (!built.contains(hour.getKey()) && !failed.contains(hour.getKey())) {
        build(hour.getKey(), hour.getValue());
        return hour.getKey();
      }
    }
    return -1;
  }

  /** Builds the history file of {@code hour} from its roll-up files. */
  void build(long hour, List<Path> files) {
    long started = System.nanoTime();
    long firstMinute = hour * 60;
    Map<SeriesId, HistoryFile.Buckets> buckets = new HashMap<>();
    RollupFileReader reader = new RollupFileReader();
    for (Path file : files) {
      List<HistoryFile.Buckets> byIndex = new ArrayList<>();
      try {
        reader.read(
            file,
            new RollupFileReader.Visitor() {
              @Override
              public void series(int index, SeriesId series) {
                while (byIndex.size() <= index) {
                  byIndex.add(null);
                }
                byIndex.set(
                    index, buckets.computeIfAbsent(series, s -> HistoryFile.Buckets.empty()));
              }

              @Override
              public void minute(
                  long minute, int index, float min, float avg, float max, int count) {
                long offset = minute - firstMinute;
                if (offset >= 0 && offset < 60 && index < byIndex.size()) {
                  byIndex
                      .get(index)
                      .add((int) (offset / HistoryFile.BUCKET_MINUTES), min, avg, max, count);
                }
              }
            });
      } catch (IOException | RuntimeException e) {
        LOG.log(
            Level.WARNING,
            "Could not read the roll-up file {0} ({1}); the history of its hour leaves it out.",
            file,
            e.toString());
      }
    }
    TreeMap<String, Map<SeriesId, HistoryFile.Buckets>> byNode = new TreeMap<>();
    buckets.entrySet().stream()
        .filter(e -> total(e.getValue()) > 0)
        .sorted(
            Map.Entry.comparingByKey(
                Comparator.comparing((SeriesId s) -> s.metric()).thenComparingInt(SeriesId::gpu)))
        .forEach(
            e ->
                byNode
                    .computeIfAbsent(e.getKey().node().value(), n -> new LinkedHashMap<>())
                    .put(e.getKey(), e.getValue()));
    try {
      Path written = HistoryFile.write(folder, hour, byNode);
      LOG.log(
          Level.DEBUG,
          "Wrote {0}: {1} series of {2} nodes from {3} roll-up files ({4} ms)",
          written,
          buckets.size(),
          byNode.size(),
          files.size(),
          TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
    } catch (IOException | RuntimeException e) {
      failed.add(hour);
      LOG.log(
          Level.WARNING,
          "Could not write the history file of the hour starting {0} to {1} ({2}); charts over"
              + " days miss that hour until the next start. Check the free space and permissions"
              + " of {1}.",
          java.time.Instant.ofEpochMilli(hour * RollupFormat.HOUR_MILLIS),
          folder,
          e.toString());
    }
  }

  private static long total(HistoryFile.Buckets b) {
    long n = 0;
    for (int c : b.count()) {
      n += c;
    }
    return n;
  }

  /**
   * Reads the ten-minute buckets of {@code node} from {@code fromMillis} on, for the metrics named,
   * oldest first. Returns where the history files end (epoch ms, the end of the newest hour read),
   * or {@code fromMillis} if none covers the window.
   */
  long read(NodeId node, Set<String> metrics, long fromMillis, Map<SeriesId, List<Rollup>> into) {
    long fromHour = Math.floorDiv(fromMillis, RollupFormat.HOUR_MILLIS);
    TreeMap<Long, Path> files = new TreeMap<>();
    for (Path path : list()) {
      long hour = HistoryFile.hourOf(path.getFileName().toString());
      if (hour >= fromHour) {
        files.put(hour, path);
      }
    }
    long end = fromMillis;
    for (Map.Entry<Long, Path> file : files.entrySet()) {
      try {
        HistoryFile.read(file.getValue(), node, metrics, fromMillis, into);
        end = Math.max(end, (file.getKey() + 1) * RollupFormat.HOUR_MILLIS);
      } catch (IOException e) {
        LOG.log(Level.WARNING, "{0}; that hour is left out of the chart.", e.getMessage());
      }
    }
    return end;
  }

  /** Deletes the history files of hours before {@code beforeHour}; returns how many went. */
  int deleteBefore(long beforeHour) {
    int deleted = 0;
    for (Path path : list()) {
      String name = path.getFileName().toString();
      long hour = HistoryFile.hourOf(name);
      boolean staleTemp = name.endsWith(".summary.tmp");
      if ((hour >= 0 && hour < beforeHour) || staleTemp) {
        try {
          Files.deleteIfExists(path);
          deleted++;
        } catch (IOException e) {
          LOG.log(Level.WARNING, "Could not delete the history file {0}: {1}", path, e);
        }
      }
    }
    return deleted;
  }

  private List<Path> list() {
    if (!Files.isDirectory(folder)) {
      return List.of();
    }
    try (Stream<Path> listing = Files.list(folder)) {
      return listing.sorted().toList();
    } catch (IOException e) {
      LOG.log(Level.WARNING, "Could not list the roll-up folder {0}: {1}", folder, e);
      return List.of();
    }
  }
}
