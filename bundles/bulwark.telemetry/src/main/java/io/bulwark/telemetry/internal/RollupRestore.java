package io.bulwark.telemetry.internal;

import io.bulwark.api.telemetry.SeriesId;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Reads roll-up files back into a {@link SeriesStore} on start: the minutes of the in-memory window
 * that ended before now, oldest file first, so that a later file's minute replaces an earlier one.
 * A file that cannot be read is logged and skipped; a torn block ends its file (see {@link
 * RollupFileReader}). Used once by the {@link RollupArchive}, before scraping starts.
 */
final class RollupRestore implements RollupFileReader.Visitor {
  private static final System.Logger LOG = System.getLogger(RollupRestore.class.getName());

  private final SeriesStore store;
  private final Path folder;
  private SeriesRing[] rings = new SeriesRing[1024];
  private long firstMinute;
  private long lastMinute;
  private long restored;

  RollupRestore(SeriesStore store, Path folder) {
    this.store = store;
    this.folder = folder;
  }

  /**
   * Restores the minutes of {@code files} that fall in the window ending at {@code nowMillis};
   * returns how many minute records were restored.
   */
  long restore(List<Path> files, long nowMillis) {
    long started = System.nanoTime();
    lastMinute = MinuteRollups.minuteOf(nowMillis);
    firstMinute = lastMinute - store.rollupMinutes();
    int read = 0;
    RollupFileReader reader = new RollupFileReader();
    for (Path file : files) {
      Arrays.fill(rings, null);
      try {
        reader.read(file, this);
        read++;
      } catch (IOException | RuntimeException e) {
        LOG.log(
            Level.WARNING,
            "Could not read the roll-up file {0} ({1}); its minutes are not restored.",
            file,
            e.toString());
      }
    }
    LOG.log(
        Level.INFO,
        "Restored {0} minute roll-ups of the last {1} hours from {2} files in {3} ({4} ms)",
        restored,
        store.rollupMinutes() / 60,
        read,
        folder,
        TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
    return restored;
  }

  @Override
  public void series(int index, SeriesId series) {
    if (index >= rings.length) {
      rings = Arrays.copyOf(rings, Math.max(index + 1, rings.length * 2));
    }
    rings[index] = store.ringForRestore(series);
  }

  @Override
  public void minute(long minute, int index, float min, float avg, float max, int count) {
    SeriesRing ring = index < rings.length ? rings[index] : null;
    if (ring != null && minute >= firstMinute && minute < lastMinute) {
      ring.restoreMinute(minute, min, avg, max, count);
      restored++;
    }
  }
}
