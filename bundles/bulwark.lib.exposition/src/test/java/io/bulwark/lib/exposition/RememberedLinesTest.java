package io.bulwark.lib.exposition;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The parser's memory of a target's previous page: lines that repeat are recognised by their bytes
 * and filed through the handle of their series, and whatever a {@link SeriesSink} receives is
 * exactly what a full parse of the same page gives.
 */
class RememberedLinesTest {
  private final ExpositionParser parser = new ExpositionParser();
  private final HandleSink sink = new HandleSink();

  private ParseSummary parse(String page) {
    sink.page.clear();
    return parser.parse(page.getBytes(UTF_8), sink);
  }

  @Test
  void aRepeatedPageIsFiledThroughTheHandlesOfItsSeries() {
    String first =
        """
        # HELP DCGM_FI_DEV_GPU_TEMP GPU temperature (in C).
        # TYPE DCGM_FI_DEV_GPU_TEMP gauge
        DCGM_FI_DEV_GPU_TEMP{gpu="0",UUID="GPU-a"} 45
        DCGM_FI_DEV_GPU_TEMP{gpu="1",UUID="GPU-b"} 47
        up 1
        """;
    parse(first);
    assertThat(sink.filed).isEqualTo(3);
    assertThat(sink.helps).isEqualTo(1);

    ParseSummary second = parse(first.replace("45", "46").replace("up 1", "up 0 1700000000000"));

    assertThat(second.samples()).isEqualTo(3);
    assertThat(sink.filed).as("no line read in full again").isEqualTo(3);
    assertThat(sink.repeats).isEqualTo(3);
    assertThat(sink.helps).as("a repeated HELP line is not handed over again").isEqualTo(1);
    assertThat(sink.page)
        .containsExactly(
            "DCGM_FI_DEV_GPU_TEMP{gpu=0,UUID=GPU-a} 46.0 -",
            "DCGM_FI_DEV_GPU_TEMP{gpu=1,UUID=GPU-b} 47.0 -",
            "up{} 0.0 1700000000000");
  }

  @Test
  void aChangedLabelValueOrAnInsertedLineIsReadInFull() {
    parse("a{x=\"1\"} 1\nb{x=\"1\"} 2\nc 3\n");
    parse("a{x=\"2\"} 1\nnew 9\nb{x=\"1\"} 2\nc 3\n");

    assertThat(sink.page)
        .containsExactly("a{x=2} 1.0 -", "new{} 9.0 -", "b{x=1} 2.0 -", "c{} 3.0 -");
    assertThat(sink.filed).as("3 first, then 4 (the page shifted after the change)").isEqualTo(7);

    parse("a{x=\"2\"} 1\nnew 9\nb{x=\"1\"} 2\nc 3\n");
    assertThat(sink.filed).as("the changed page is remembered in turn").isEqualTo(7);
    assertThat(sink.repeats).isEqualTo(4);
  }

  @Test
  void aSeriesWithoutLabelsIsNotTakenForTheSameNameWithLabels() {
    parse("up 1\n");
    ParseSummary summary = parse("up {job=\"x\"} 1\n");

    assertThat(summary.malformed()).isZero();
    assertThat(sink.page).containsExactly("up{job=x} 1.0 -");
  }

  @Test
  void aLongerNameThatStartsLikeTheRememberedOneIsAnotherSeries() {
    parse("up{a=\"1\"} 1\nvalue 2\n");
    parse("up{a=\"1\"}x 1\nvalue_total 2\n");

    assertThat(sink.page).containsExactly("value_total{} 2.0 -");
  }

  @Test
  void aMalformedValueOnARepeatedLineIsReportedWithItsMetricName() {
    parse("DCGM_FI_DEV_GPU_TEMP{gpu=\"0\"} 45\n");
    ParseSummary summary = parse("DCGM_FI_DEV_GPU_TEMP{gpu=\"0\"} hot\n");

    assertThat(summary.malformed()).isEqualTo(1);
    assertThat(summary.firstMalformed().get(0).reason())
        .isEqualTo("value 'hot' of DCGM_FI_DEV_GPU_TEMP is not a number");
    assertThat(parse("DCGM_FI_DEV_GPU_TEMP{gpu=\"0\"} 46\n").samples()).isEqualTo(1);
    assertThat(sink.page).containsExactly("DCGM_FI_DEV_GPU_TEMP{gpu=0} 46.0 -");
  }

  @Test
  void aRepeatedLineWithABadValueIsReadInFullOnTheNextPage() {
    parse("a{x=\"1\"} 1\nb 2\n");
    parse("a{x=\"1\"} oops\nb 2\n");
    int filed = sink.filed;
    parse("a{x=\"1\"} 3\nb 4\n");

    assertThat(sink.filed - filed).as("the line after the bad value").isEqualTo(1);
    assertThat(sink.page).containsExactly("a{x=1} 3.0 -", "b{} 4.0 -");
  }

  @Test
  void aShorterPageForgetsTheLinesItNoLongerHas() {
    parse("a 1\nb 2\nc 3\n");
    parse("a 1\n");
    parse("a 1\nb 2\nc 3\n");

    assertThat(sink.filed).as("b and c read in full again after they were gone").isEqualTo(5);
  }

  @Test
  void aChangedHelpLineIsHandedOverAgain() {
    parse("# HELP a first\na 1\n");
    parse("# HELP a second\na 1\n");

    assertThat(sink.helps).isEqualTo(2);
    assertThat(sink.lastHelp).isEqualTo("second");
  }

  @Test
  void aPlainSinkAfterASeriesSinkGetsEveryLineInFull() {
    parse("a{x=\"1\"} 1\n");
    RecordingSink plain = new RecordingSink();
    parser.parse("a{x=\"1\"} 2\n".getBytes(UTF_8), plain);
    HandleSink other = new HandleSink();
    parser.parse("a{x=\"1\"} 3\n".getBytes(UTF_8), other);

    assertThat(plain.samples).hasSize(1);
    assertThat(other.filed).as("another sink's handles are never recalled").isEqualTo(1);
    assertThat(other.page).containsExactly("a{x=1} 3.0 -");
  }

  @Test
  void everyPageOfAChangingExporterIsReadAsAFullParseReadsIt() {
    Random random = new Random(20261129);
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < 60; i++) {
      lines.add(randomLine(random, i));
    }
    for (int scrape = 0; scrape < 400; scrape++) {
      mutate(random, lines);
      StringBuilder page = new StringBuilder();
      for (String line : lines) {
        page.append(line.replace("$V", Integer.toString(random.nextInt(1000)))).append('\n');
      }
      String text = page.toString();
      RecordingSink full = new RecordingSink();
      ParseSummary expected = new ExpositionParser().parse(text.getBytes(UTF_8), full);

      ParseSummary actual = parse(text);

      assertThat(actual).as("summary of scrape %d:%n%s", scrape, text).isEqualTo(expected);
      assertThat(sink.page).as("samples of scrape %d:%n%s", scrape, text).isEqualTo(render(full));
    }
    assertThat(sink.repeats).as("most lines were recognised").isGreaterThan(sink.filed * 3);
  }

  private static String randomLine(Random random, int i) {
    return switch (random.nextInt(8)) {
      case 0 -> "# HELP m" + (i % 7) + " help " + i;
      case 1 -> "# TYPE m" + (i % 7) + " gauge";
      case 2 -> "";
      case 3 -> "m" + (i % 7) + " $V";
      case 4 -> "m" + (i % 7) + "{gpu=\"" + (i % 3) + "\"} $V 17000000" + i;
      default -> "m" + (i % 7) + "{gpu=\"" + (i % 8) + "\",UUID=\"GPU-" + i + "\"}\t$V";
    };
  }

  private static void mutate(Random random, List<String> lines) {
    int roll = random.nextInt(10);
    int at = random.nextInt(lines.size());
    switch (roll) {
      case 0 -> lines.add(at, randomLine(random, random.nextInt(100)));
      case 1 -> {
        if (lines.size() > 5) {
          lines.remove(at);
        }
      }
      case 2 -> lines.set(at, randomLine(random, random.nextInt(100)));
      case 3 -> lines.set(at, lines.get(at).replace("$V", "bad"));
      case 4 -> lines.set(at, lines.get(at).replace("\"}", "\"} {x=\"1\"}"));
      case 5 -> lines.set(at, lines.get(at).replace("$V", "$V junk"));
      default -> {
        // An unchanged layout, as most scrapes are.
      }
    }
  }

  private static List<String> render(RecordingSink full) {
    List<String> rendered = new ArrayList<>();
    for (RecordingSink.Line line : full.samples) {
      rendered.add(
          HandleSink.render(
              line.name(),
              line.labels(),
              line.value(),
              line.timestamp() != null,
              line.timestamp() == null ? 0 : line.timestamp()));
    }
    return rendered;
  }

  /** Renders what it is handed, from the line or from the handle it gave the line's series. */
  private static final class HandleSink implements SeriesSink {
    final List<String> page = new ArrayList<>();
    int filed;
    int repeats;
    int helps;
    String lastHelp;

    @Override
    public Object file(ExpositionLine line) {
      filed++;
      Map<String, String> labels = new LinkedHashMap<>();
      for (int i = 0; i < line.labelCount(); i++) {
        labels.put(line.labelName(i), line.labelValue(i));
      }
      Series series = new Series(line.name(), labels);
      page.add(
          render(
              series.name,
              series.labels,
              line.value(),
              line.hasTimestamp(),
              line.timestampMillis()));
      return series;
    }

    @Override
    public void repeat(Object handle, double value, boolean hasTimestamp, long timestampMillis) {
      repeats++;
      Series series = (Series) handle;
      page.add(render(series.name, series.labels, value, hasTimestamp, timestampMillis));
    }

    @Override
    public void help(String metric, String text) {
      helps++;
      lastHelp = text;
    }

    static String render(
        String name,
        Map<String, String> labels,
        double value,
        boolean hasTimestamp,
        long timestamp) {
      StringBuilder text = new StringBuilder(name).append('{');
      labels.forEach(
          (k, v) ->
              text.append(text.charAt(text.length() - 1) == '{' ? "" : ",")
                  .append(k)
                  .append('=')
                  .append(v));
      return text.append("} ")
          .append(value)
          .append(' ')
          .append(hasTimestamp ? Long.toString(timestamp) : "-")
          .toString();
    }

    private record Series(String name, Map<String, String> labels) {}
  }
}
