package io.bulwark.telemetry.internal;

import io.bulwark.api.telemetry.SeriesId;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The series named in the roll-up file being written, in file order: each series gets the next
 * index the first time a minute of the file is written after it appears, and the new ones are named
 * in a series block before their first records. Used by the {@link RollupArchive}'s writer thread
 * only; not thread-safe.
 */
final class RollupSeriesTable {
  private final List<SeriesRing> rings = new ArrayList<>();
  private final List<SeriesId> added = new ArrayList<>();
  private int generation;

  /** Forgets the series of the previous file. */
  void startFile() {
    generation++;
    rings.clear();
  }

  /** Numbers the series of {@code store} not yet in the file, and names them in {@code file}. */
  void register(SeriesStore store, RollupFileWriter file) throws IOException {
    added.clear();
    int first = rings.size();
    store.forEachSeries(
        (node, gpu, metric, ring) -> {
          MinuteRollups rollups = ring.rollups();
          if (rollups != null && rollups.fileGeneration != generation) {
            rollups.fileGeneration = generation;
            rings.add(ring);
            added.add(SeriesId.of(node, gpu, metric));
          }
        });
    for (int from = 0; from < added.size(); from += RollupFormat.RECORDS_PER_BLOCK) {
      int to = Math.min(added.size(), from + RollupFormat.RECORDS_PER_BLOCK);
      file.writeSeries(first + from, added.subList(from, to));
    }
  }

  /** Returns the series of the file, in file order. */
  List<SeriesRing> rings() {
    return rings;
  }
}
