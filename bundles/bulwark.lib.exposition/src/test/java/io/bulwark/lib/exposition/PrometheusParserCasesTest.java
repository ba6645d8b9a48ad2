package io.bulwark.lib.exposition;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The edge cases of the text format that Prometheus' own parser is tested with (the error and
 * success scenarios of prometheus/common's {@code expfmt/text_parse_test.go}, as of 2026-08),
 * written here as this project's own pages, each with the verdict Prometheus' parser gives it: a
 * page it refuses must be refused here too (a malformed line, reported with its number), a page it
 * reads must be read here with the same samples. Where expfmt's verdict depends on its name
 * validation scheme (quoted UTF-8 names), the verdict of its classic scheme is the one Bulwark
 * follows: dcgm-exporter's names are classic names.
 */
class PrometheusParserCasesTest {

  static Stream<Arguments> refused() {
    return Stream.of(
        refused("no newline at the end of the page", "\nbla 3.14\nblubber 42", 3),
        refused("invalid escape \\t in a label value", "metric{label=\"\\t\"} 3.14\n", 1),
        refused("raw newline in a label value", "metric{label=\"new\nline\"} 3.14\n", 1),
        refused("label name starting with @", "metric{@=\"bla\"} 3.14\n", 1),
        refused("reserved label __name__", "metric{__name__=\"bla\"} 3.14\n", 1),
        refused("label name not followed by =", "metric{label+=\"bla\"} 3.14\n", 1),
        refused("label value not quoted", "metric{label=bla} 3.14\n", 1),
        refused(
            "summary quantile that is not a number",
            "# TYPE metric summary\nmetric{quantile=\"bla\"} 3.14\n",
            2),
        refused("junk after a label value", "metric{label=\"bla\"+} 3.14\n", 1),
        refused("timestamp that is not an integer", "metric{label=\"bla\"} 3.14 2.72\n", 1),
        refused("a token after the timestamp", "metric{label=\"bla\"} 3.14 2 3\n", 1),
        refused("value that is not a number", "metric{label=\"bla\"} blubb\n", 1),
        refused("second HELP line", "# HELP metric one\n# HELP metric two\n", 2),
        refused("second TYPE line", "# TYPE metric counter\n# TYPE metric untyped\n", 2),
        refused("TYPE after samples", "metric 4.12\n# TYPE metric counter\n", 2),
        refused("unknown type", "# TYPE metric bla\n", 1),
        refused("type with a trailing blank", "# TYPE metric counter \n", 1),
        refused("invalid metric name in a comment", "# TYPE met-ric\n", 1),
        refused("metric name starting with @", "@invalidmetric{label=\"bla\"} 3.14 2\n", 1),
        refused("label set without a metric name", "{label=\"bla\"} 3.14 2\n", 1),
        refused(
            "histogram le that is not a number",
            "# TYPE metric histogram\nmetric_bucket{le=\"bla\"} 3.14\n",
            2),
        refusedBytes("label value that is not UTF-8", "metric{l=\"", 0xbd, "\"} 3.14\n", 1),
        refused("digit separator in a value", "foo 1_2\n", 1),
        refused("hexadecimal float value", "foo 0x1p-3\n", 1),
        refused("hexadecimal float value, capital P", "foo 0x1P-3\n", 1),
        refused("binary integer value", "foo 0B1\n", 1),
        refused("octal integer value", "foo 0O1\n", 1),
        refused("hexadecimal integer value", "foo 0X1\n", 1),
        refused("hexadecimal integer value, lower case", "foo 0x1\n", 1),
        refused("binary integer value, lower case", "foo 0b1\n", 1),
        refused("octal integer value, lower case", "foo 0o1\n", 1),
        refused(
            "hexadecimal float le",
            "# TYPE metric histogram\nmetric_bucket{le=\"0x1p-3\"} 3.14\n",
            2),
        refused(
            "hexadecimal float quantile",
            "# TYPE metric summary\nmetric{quantile=\"0x1p-3\"} 3.14\n",
            2),
        refused("duplicate label name", "metric{label=\"bla\",label=\"bla\"} 3.14\n", 1),
        refused("two quoted names in braces", "{\"one.name\",\"another.name\"} 3.14\n", 1),
        refused("quoted name with an invalid escape", "{\"a\\xc5z\",label=\"bla\"} 3.14\n", 1),
        refused("quoted name followed by a dot", "{\"metric.name\".label=\"bla\"} 3.14\n", 1),
        refused("quoted name in a TYPE line", "# TYPE \"metric.name\\t\" counter\n", 1),
        refused("quoted dotted name (classic names)", "{\"metric.name\",foo=\"bla\"} 3.14\n", 1),
        refused(
            "quoted dotted label name (classic names)",
            "metric_name{\"foo\"=\"bar\", \"dotted.label\"=\"bla\"} 3.14\n",
            1),
        refused(
            "negative histogram count",
            "# TYPE request_duration_microseconds histogram\n"
                + "request_duration_microseconds_bucket{le=\"100\"} 123\n"
                + "request_duration_microseconds_bucket{le=\"+Inf\"} 2693\n"
                + "request_duration_microseconds_sum 1756047.3\n"
                + "request_duration_microseconds_count -2693\n",
            5),
        refused(
            "negative histogram bucket",
            "# TYPE request_duration_microseconds histogram\n"
                + "request_duration_microseconds_bucket{le=\"120\"} -412\n",
            2),
        refused(
            "negative float histogram count",
            "# TYPE h histogram\nh_bucket{le=\"+Inf\"} 3\nh_count -2693.123\n",
            3),
        refused(
            "negative float histogram bucket",
            "# TYPE h histogram\nh_bucket{le=\"120\"} -412.456\n",
            2),
        refused("empty braces without a name", "{} 3.14\n", 1));
  }

  static Stream<Arguments> accepted() {
    return Stream.of(
        accepted("only blank lines", "\n\n   \n\t\n", 0),
        accepted(
            "comments other than HELP and TYPE", "# A normal comment.\n#\n# some\n#foo\nm 1\n", 1),
        accepted("bare HELP and TYPE lines", "# HELP\n# HELP my_summary\n# TYPE foo\nfoo 1\n", 1),
        accepted("HELP without a space after #", "#HELP foo x\nfoo 1\n", 1),
        accepted("extra blanks around keywords", "  #    TYPE    name2 gauge\nname2 1\n", 1),
        accepted("TYPE in upper case", "# TYPE c COUNTER\nc 1\n# TYPE u Untyped\nu 2\n", 2),
        accepted("gauge histograms", "# TYPE g gauge_histogram\ng_bucket{le=\"1\"} 1\n", 1),
        accepted("HELP after the samples", "m 1\n# HELP m later\n", 1),
        accepted("HELP with escapes", "# HELP name two-line\\n doc  str\\\\ing\nname 1\n", 1),
        accepted("empty braces", "no_labels{} 3\n", 1),
        accepted("negative value and timestamp", "decoy -1 -2\n", 1),
        accepted(
            "special and unusual numbers",
            "a NaN\nb +Inf\nc -Inf\nd -3e3\ne 1.7560473e+06\nf .23\ng 08\nh 42.0\n",
            8),
        accepted("positive and zero-padded timestamps", "a 1 +5\nb 2 007\n", 2),
        accepted("space between name and labels", "name {labelname=\"val\"} 1\n", 1),
        accepted(
            "blanks around label names, = and commas; trailing comma",
            "name2{labelname=\"val2\"\t,basename   =   \"basevalue2\"\t\t}\n"
                    .replace("}\n", "} 1\n")
                + "name3{ labelname = \"val1\" , }-Inf\n",
            2),
        accepted(
            "escapes and raw braces in label values",
            "m{a=\"base\\\"v\\\\al\\nue\",b=\"}{,=\",c=\"\"} 1\n",
            1),
        accepted("UTF-8 label values", "m{a=\"Björn\",b=\"佖佥\"} 1\n", 1),
        accepted(
            "families that are not contiguous",
            "# TYPE a gauge\na 1\n# TYPE b gauge\nb 2\na{x=\"1\"} 3\n",
            3),
        accepted(
            "a summary with quantiles, sum and count",
            "# TYPE my_summary summary\n"
                + "my_summary{n1=\"val1\",quantile=\"0.5\"} 110\n"
                + "my_summary{n1=\"val1\",quantile=\".3\"} NaN\n"
                + "my_summary{n1=\"val1\",quantile=\"-12.34\",} 1\n"
                + "my_summary_sum{n1=\"val1\"} 08 15\n"
                + "my_summary_count{n1=\"val1\"} 42 15\n"
                + "fake_sum{n1=\"val1\"} 2001\n",
            6),
        accepted(
            "a histogram with float counts and no +Inf bucket",
            "# TYPE request_duration_microseconds histogram\n"
                + "request_duration_microseconds_bucket{le=\"100\"} 123.5\n"
                + "request_duration_microseconds_bucket{le=\"172.8\"} 1524\n"
                + "request_duration_microseconds_sum 1.7560473e+06\n"
                + "request_duration_microseconds_count 2693.9\n",
            4),
        accepted("a duplicate series", "foo 1\nfoo 2\n", 2),
        accepted("label names starting with __", "m{__meta=\"x\"} 1\n", 1),
        accepted("a name with colons", ":x 1\nfoo:bar 2\n", 2));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource
  void refused(String edgeCase, byte[] page, int line) {
    ParseSummary summary = new ExpositionParser().parse(page, new RecordingSink());

    assertThat(summary.malformed()).as("malformed lines of: %s", edgeCase).isPositive();
    assertThat(summary.firstMalformed().get(0).line()).as("first bad line").isEqualTo(line);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource
  void accepted(String edgeCase, byte[] page, int samples) {
    RecordingSink sink = new RecordingSink();
    ParseSummary summary = new ExpositionParser().parse(page, sink);

    assertThat(summary.firstMalformed()).as(edgeCase).isEmpty();
    assertThat(sink.samples).as("samples of: %s", edgeCase).hasSize(samples);
  }

  @ParameterizedTest(name = "{0}, as a target's repeated page")
  @MethodSource("refused")
  void aRefusedPageIsRefusedAgainWhenItRepeats(String edgeCase, byte[] page, int line) {
    ExpositionParser parser = new ExpositionParser();
    RecordingSink sink = new RecordingSink();

    parser.parse(page, page.length, sink.asSeriesSink());
    ParseSummary again = parser.parse(page, page.length, sink.asSeriesSink());

    assertThat(again.malformed()).as(edgeCase).isPositive();
    assertThat(again.firstMalformed().get(0).line()).isEqualTo(line);
  }

  private static Arguments refused(String edgeCase, String page, int line) {
    return Arguments.of(edgeCase, page.getBytes(UTF_8), line);
  }

  private static Arguments refusedBytes(
      String edgeCase, String before, int rawByte, String after, int line) {
    ByteArrayOutputStream page = new ByteArrayOutputStream();
    page.writeBytes(before.getBytes(UTF_8));
    page.write(rawByte);
    page.writeBytes(after.getBytes(UTF_8));
    return Arguments.of(edgeCase, page.toByteArray(), line);
  }

  private static Arguments accepted(String edgeCase, String page, int samples) {
    return Arguments.of(edgeCase, page.getBytes(UTF_8), samples);
  }
}
