package io.bulwark.lib.exposition;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Keeps copies of everything a parser hands over, for the tests to look at. */
final class RecordingSink implements ExpositionSink {
  record Line(int number, String name, Map<String, String> labels, double value, Long timestamp) {}

  final List<Line> samples = new ArrayList<>();
  final Map<String, String> help = new LinkedHashMap<>();
  final Map<String, String> types = new LinkedHashMap<>();

  @Override
  public void sample(ExpositionLine line) {
    Map<String, String> labels = new LinkedHashMap<>();
    for (int i = 0; i < line.labelCount(); i++) {
      labels.put(line.labelName(i), line.labelValue(i));
    }
    samples.add(
        new Line(
            line.lineNumber(),
            line.name(),
            labels,
            line.value(),
            line.hasTimestamp() ? line.timestampMillis() : null));
  }

  @Override
  public void help(String metric, String text) {
    help.put(metric, text);
  }

  @Override
  public void type(String metric, String type) {
    types.put(metric, type);
  }

  /**
   * Returns a series sink that records into this one: every line read in full is a sample here, a
   * repeated line only counts in {@link #repeats}.
   */
  SeriesSink asSeriesSink() {
    RecordingSink recording = this;
    return new SeriesSink() {
      @Override
      public Object file(ExpositionLine line) {
        recording.sample(line);
        return line.name();
      }

      @Override
      public void repeat(Object handle, double value, boolean hasTimestamp, long timestampMillis) {
        recording.repeats++;
      }
    };
  }

  int repeats;
}
