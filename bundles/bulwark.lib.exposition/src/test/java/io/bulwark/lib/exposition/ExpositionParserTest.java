package io.bulwark.lib.exposition;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.bulwark.testing.DcgmExporterPage;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class ExpositionParserTest {
  private final ExpositionParser parser = new ExpositionParser();
  private final RecordingSink sink = new RecordingSink();

  private ParseSummary parse(String page) {
    return parser.parse(page.getBytes(UTF_8), sink);
  }

  @Test
  void readsAValidPageWithHelpTypeAndLabels() {
    ParseSummary summary =
        parse(
            """
        # HELP DCGM_FI_DEV_GPU_TEMP GPU temperature (in C).
        # TYPE DCGM_FI_DEV_GPU_TEMP gauge
        DCGM_FI_DEV_GPU_TEMP{gpu="0",UUID="GPU-a",Hostname="gpu-node-007"} 45
        DCGM_FI_DEV_GPU_TEMP{gpu="1",UUID="GPU-b",Hostname="gpu-node-007"} 47.5
        up 1
        """);

    assertThat(summary.samples()).isEqualTo(3);
    assertThat(summary.malformed()).isZero();
    assertThat(summary.lines()).isEqualTo(5);
    assertThat(sink.help).containsEntry("DCGM_FI_DEV_GPU_TEMP", "GPU temperature (in C).");
    assertThat(sink.types).containsEntry("DCGM_FI_DEV_GPU_TEMP", "gauge");
    assertThat(sink.samples.get(0))
        .isEqualTo(
            new RecordingSink.Line(
                3,
                "DCGM_FI_DEV_GPU_TEMP",
                Map.of("gpu", "0", "UUID", "GPU-a", "Hostname", "gpu-node-007"),
                45,
                null));
    assertThat(sink.samples.get(1).value()).isEqualTo(47.5);
    assertThat(sink.samples.get(2)).isEqualTo(new RecordingSink.Line(5, "up", Map.of(), 1, null));
  }

  @Test
  void resolvesEscapesInLabelValuesAndHelp() {
    ParseSummary summary =
        parse(
            "# HELP m a \\\\ back\\nslash \\\"kept\n"
                + "m{path=\"C:\\\\dir\\\\f\",quote=\"say \\\"hi\\\"\",lines=\"a\\nb\"} 1\n");

    assertThat(summary.samples()).isEqualTo(1);
    assertThat(sink.help.get("m")).isEqualTo("a \\ back\nslash \\\"kept");
    assertThat(sink.samples.get(0).labels())
        .containsExactly(
            Map.entry("path", "C:\\dir\\f"),
            Map.entry("quote", "say \"hi\""),
            Map.entry("lines", "a\nb"));
  }

  @Test
  void acceptsWhitespaceTrailingCommaEmptyLabelsAndUtf8() {
    ParseSummary summary =
        parse(
            """
        m1 { a = "x" , b="y", } 2
        m2{} 3
        m3\t4
        m4{host="nœud-7"} 5
        """);

    assertThat(summary.malformed()).isZero();
    assertThat(sink.samples)
        .extracting(RecordingSink.Line::value)
        .containsExactly(2.0, 3.0, 4.0, 5.0);
    assertThat(sink.samples.get(0).labels())
        .containsExactly(Map.entry("a", "x"), Map.entry("b", "y"));
    assertThat(sink.samples.get(3).labels()).containsEntry("host", "nœud-7");
  }

  @Test
  void readsSpecialValues() {
    parse(
        """
        a NaN
        b +Inf
        c -Inf
        d inf
        e -0
        f 1.5e3
        g -2.5E-2
        h .5
        i 7.
        j 1e400
        k 123456789012345678901234567890
        l 0.1000000000000000055511151231257827
        """);

    assertThat(sink.samples)
        .extracting(RecordingSink.Line::value)
        .containsExactly(
            Double.NaN,
            Double.POSITIVE_INFINITY,
            Double.NEGATIVE_INFINITY,
            Double.POSITIVE_INFINITY,
            -0.0,
            1500.0,
            -0.025,
            0.5,
            7.0,
            Double.POSITIVE_INFINITY,
            1.2345678901234568E29,
            0.1);
    assertThat(Double.doubleToRawLongBits(sink.samples.get(4).value()))
        .isEqualTo(Double.doubleToRawLongBits(-0.0));
  }

  @Test
  void readsDecimalValuesExactlyAsJavaDoes() {
    Random random = new Random(42);
    StringBuilder page = new StringBuilder();
    double[] expected = new double[2000];
    for (int i = 0; i < expected.length; i++) {
      String text =
          switch (i % 4) {
            case 0 -> Double.toString(random.nextDouble() * Math.pow(10, random.nextInt(30) - 15));
            case 1 -> Long.toString(random.nextLong() >> random.nextInt(60));
            case 2 -> String.format(java.util.Locale.ROOT, "%.6f", random.nextDouble() * 1000);
            default ->
                random.nextInt(100000)
                    + "."
                    + random.nextInt(1000)
                    + "e"
                    + (random.nextInt(40) - 20);
          };
      expected[i] = Double.parseDouble(text);
      page.append("v ").append(text).append(' ').append(i + 1).append('\n');
    }

    parse(page.toString());

    assertThat(sink.samples).hasSize(expected.length);
    for (int i = 0; i < expected.length; i++) {
      assertThat(sink.samples.get(i).value()).as("sample %d", i).isEqualTo(expected[i]);
    }
  }

  @Test
  void readsTimestamps() {
    parse(
        """
        a 1 1700000000123
        b{x="y"} 2 -5
        c 3
        """);

    assertThat(sink.samples)
        .extracting(RecordingSink.Line::timestamp)
        .containsExactly(1700000000123L, -5L, null);
  }

  @Test
  void skipsCommentsBlankLinesAndCarriageReturns() {
    ParseSummary summary = parse("# just a comment\n\n   \n#\n# EOF\r\na 1\r\n  b 2  \n\nc 3\n");

    assertThat(summary.malformed()).isZero();
    assertThat(sink.samples).extracting(RecordingSink.Line::name).containsExactly("a", "b", "c");
    assertThat(sink.samples).extracting(RecordingSink.Line::number).containsExactly(6, 7, 9);
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
      {gpu="0"} 1                          | expected a metric name, found '{gpu="0"} 1'
      9lives 1                             | expected a metric name
      foo-bar 1                            | invalid character '-' in metric name
      foo                                  | foo has no value
      foo{a="b"}                           | foo has no value
      foo abc                              | value 'abc' of foo is not a number
      foo 1.2.3                            | value '1.2.3' of foo is not a number
      foo 1e                               | value '1e' of foo is not a number
      foo -NaN                             | value '-NaN' of foo is not a number
      foo 1 12:00                          | timestamp '12:00' of foo is not an integer
      foo 1 1.5                            | timestamp '1.5' of foo is not an integer
      foo 1 99999999999999999999           | timestamp '99999999999999999999' of foo is not an integer
      foo 1 2 3                            | unexpected text after the timestamp of foo: '3'
      foo{a="b" 1                          | expected ',' or '}' after label a of foo
      foo{a="b",                           | label set of foo is not closed with '}'
      foo{a="b                             | value of label a of foo is not closed with '"'
      foo{a=b} 1                           | value of label a of foo is not in double quotes
      foo{a} 1                             | label a of foo has no '='
      foo{1a="b"} 1                        | expected a label name in foo{...}, found '1a="b"} 1'
      foo{a="b",a="c"} 1                   | label a appears twice on foo
      # TYPE foo gaugee                    | # TYPE of foo is 'gaugee', not counter, gauge, histogram, summary or untyped
      # TYPE                               | # TYPE line without a metric name
      # HELP                               | # HELP line without a metric name
      # HELP foo-bar x                     | # HELP line with an invalid metric name 'foo-bar x'
      """)
  void skipsAndReportsEveryKindOfMalformedLine(String line, String reason) {
    ParseSummary summary = parse("good 1\n" + line + "\nalso_good 2\n");

    assertThat(summary.samples()).isEqualTo(2);
    assertThat(summary.malformed()).isEqualTo(1);
    assertThat(summary.firstMalformed()).hasSize(1);
    assertThat(summary.firstMalformed().get(0).line()).isEqualTo(2);
    assertThat(summary.firstMalformed().get(0).reason()).startsWith(reason);
    assertThat(summary.isGarbage()).isFalse();
    assertThat(sink.samples)
        .extracting(RecordingSink.Line::name)
        .containsExactly("good", "also_good");
  }

  @Test
  void hugeNamesLabelValuesAndLabelSetsAreRefusedWithoutBeingKept() {
    String longName = "DCGM_FI_" + "X".repeat(ExpositionParser.MAX_NAME_BYTES);
    String longValue = "h".repeat(ExpositionParser.MAX_LABEL_VALUE_BYTES + 1);
    StringBuilder manyLabels = new StringBuilder("foo{");
    for (int i = 0; i <= ExpositionParser.MAX_LABELS; i++) {
      manyLabels.append("l").append(i).append("=\"v\",");
    }
    manyLabels.append("} 1");
    ParseSummary summary =
        parse(
            longName
                + " 1\n"
                + "foo{Hostname=\""
                + longValue
                + "\"} 1\n"
                + "foo{"
                + "l".repeat(ExpositionParser.MAX_NAME_BYTES + 1)
                + "=\"v\"} 1\n"
                + manyLabels
                + "\nfoo{Hostname=\""
                + "h".repeat(ExpositionParser.MAX_LABEL_VALUE_BYTES)
                + "\"} 2\n");

    assertThat(summary.samples()).as("the longest allowed value still reads").isEqualTo(1);
    assertThat(summary.firstMalformed())
        .extracting(ParseSummary.MalformedLine::reason)
        .containsExactly(
            "metric name '" + longName.substring(0, 40) + "...' is 264 bytes long, more than 256",
            "value of label Hostname of foo is 1025 bytes long, more than 1024",
            "a label name of foo is 257 bytes long, more than 256",
            "foo has more than 64 labels");
  }

  @Test
  void escapedQuoteDoesNotCloseALabelValue() {
    ParseSummary summary = parse("foo{a=\"b\\\"} 1\n");

    assertThat(summary.malformed()).isEqualTo(1);
    assertThat(summary.firstMalformed().get(0).reason()).contains("not closed");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "<html><body><h1>502 Bad Gateway</h1></body></html>\n<p>nginx</p>\n",
        "{\"status\":\"error\",\"message\":\"not found\"}",
        "\u0000\u0001\u0002binary\u00ff junk\n"
      })
  void reportsAPageOfGarbageAsGarbage(String page) {
    ParseSummary summary = parse(page);

    assertThat(summary.samples()).isZero();
    assertThat(summary.isGarbage()).isTrue();
    assertThat(summary.describeMalformed()).contains("malformed line").contains("line 1: ");
  }

  @Test
  void anEmptyPageIsNotGarbage() {
    assertThat(parse("").isGarbage()).isFalse();
    assertThat(parse("# only comments\n").isGarbage()).isFalse();
  }

  @Test
  void reportsOnlyTheFirstFewMalformedLinesButCountsAll() {
    ParseSummary summary = parse("x\n".repeat(50) + "ok 1\n");

    assertThat(summary.malformed()).isEqualTo(50);
    assertThat(summary.firstMalformed()).hasSize(5);
    assertThat(summary.describeMalformed())
        .isEqualTo("50 malformed lines (line 1: x has no value)");
  }

  @Test
  void parsesARealDcgmPageAndKeepsLabelsStableAcrossScrapes() {
    ParseSummary first = parse(DcgmExporterPage.render("gpu-node-007", 8, 1));
    String firstUuid = sink.samples.get(0).labels().get("UUID");
    sink.samples.clear();
    ParseSummary second = parse(DcgmExporterPage.render("gpu-node-007", 8, 2));

    assertThat(first.samples()).isEqualTo(240);
    assertThat(second.samples()).isEqualTo(240);
    assertThat(first.malformed()).isZero();
    assertThat(sink.samples.get(0).labels())
        .containsOnlyKeys(
            "gpu",
            "UUID",
            "pci_bus_id",
            "device",
            "modelName",
            "Hostname",
            "DCGM_FI_DRIVER_VERSION");
    assertThat(sink.samples.get(0).labels().get("UUID")).isSameAs(firstUuid);
    assertThat(sink.samples.get(0).value()).isEqualTo(DcgmExporterPage.value(0, 0, 2));
  }
}
