package io.bulwark.lib.exposition;

/**
 * An {@link ExpositionSink} that files samples into series and lets {@link ExpositionParser} skip
 * re-reading what repeats from one page of a target to the next. When a sample line is read in
 * full, {@link #file} files it and returns a handle for its series; when a later page of the same
 * parser carries, at the same place, a line whose metric name and labels are the same bytes, the
 * parser calls {@link #repeat} with that handle and the new value instead. Valid {@code # HELP} and
 * {@code # TYPE} lines that repeat the previous page's line at the same place are not handed over
 * again.
 */
public interface SeriesSink extends ExpositionSink {

  /**
   * Files one sample line and returns the handle of its series (any object the sink chooses), or
   * null if later repeats of this line must be read in full again.
   */
  Object file(ExpositionLine line);

  /**
   * Files a new sample of the series {@link #file} returned {@code handle} for: {@code value} at
   * the line's own timestamp if {@code hasTimestamp}, else at the scrape's time.
   */
  void repeat(Object handle, double value, boolean hasTimestamp, long timestampMillis);

  @Override
  default void sample(ExpositionLine line) {
    file(line);
  }
}
