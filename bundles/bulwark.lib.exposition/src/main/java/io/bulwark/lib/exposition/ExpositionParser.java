package io.bulwark.lib.exposition;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.util.ArrayList;
import java.util.List;

/**
 * Parses pages in the Prometheus text exposition format 0.0.4 straight from their bytes: {@code #
 * HELP} and {@code # TYPE} lines, other comments, blank lines, and sample lines {@code
 * name{label="value",...} value [timestamp]} with the escapes {@code \\ \" \n} in label values. A
 * malformed line is reported in the {@link ParseSummary} with its number and the reason (the caller
 * refuses such a page, as Prometheus does); parsing never throws on bad input. What Prometheus'
 * parser (expfmt) refuses is malformed here too: besides a broken line, an escape other than those
 * three, a label value that is not UTF-8, the reserved label {@code __name__}, a second HELP or
 * TYPE of a family or a TYPE after its samples, a summary's {@code quantile} or a histogram's
 * {@code le} that is not a number, a negative histogram bucket or count ({@link PageFamilies}), and
 * a page that ends in the middle of a line (no final newline: cut short). Metric and label names
 * follow Prometheus' classic rules (no quoted UTF-8 names). Names and label values that repeat from
 * scrape to scrape are decoded once, so a steady scrape allocates almost nothing. One instance per
 * scrape target: not thread-safe.
 */
public final class ExpositionParser {
  private static final int REPORTED_MALFORMED = 5;
  private static final int SNIPPET = 40;

  /**
   * The longest metric or label name read, in bytes; a longer one makes its line malformed, so that
   * an exporter cannot fill the name tables with huge names.
   */
  static final int MAX_NAME_BYTES = 256;

  /** The longest label value read, in bytes (as Prometheus' label_value_length_limit). */
  static final int MAX_LABEL_VALUE_BYTES = 1024;

  /** The most labels one line may carry (as Prometheus' label_limit). */
  static final int MAX_LABELS = 64;

  private final NameTable names = new NameTable(4096);
  private final RecentNames metricNames = new RecentNames(names);
  private final RecentNames labelNames = new RecentNames(names);
  private final ValueText numbers = new ValueText();
  private final MetadataLine metadata = new MetadataLine(names);
  private final ExpositionLine line = new ExpositionLine(new RecentNames(new NameTable(4096)));
  private final LineMemory memory = new LineMemory();
  private final PageFamilies families = new PageFamilies();
  private SeriesSink memorySink;
  private String problem;
  private int keyEnd;
  private Object filedHandle;
  private double lineValue;
  private boolean lineHasTimestamp;
  private long lineTimestamp;

  /** Forgets the previous page: every line of the next one is read in full. */
  public void forgetPreviousPage() {
    memory.clear();
  }

  /** Parses {@code page} and hands every valid line to {@code sink}. */
  public ParseSummary parse(byte[] page, ExpositionSink sink) {
    return parse(page, page.length, sink);
  }

  /**
   * Parses the first {@code length} bytes of {@code page} and hands every valid line to {@code
   * sink}.
   */
  public ParseSummary parse(byte[] page, int length, ExpositionSink sink) {
    SeriesSink series = sink instanceof SeriesSink seriesSink ? seriesSink : null;
    if (series != memorySink) {
      memory.clear();
      memorySink = series;
    }
    memory.begin();
    families.begin();
    int lineNumber = 0;
    int samples = 0;
    int malformed = 0;
    List<ParseSummary.MalformedLine> reported = new ArrayList<>(0);
    int p = 0;
    while (p < length) {
      lineNumber++;
      if (series != null) {
        problem = null;
        int repeated = repeatedLineEnd(page, p, length, lineNumber, series);
        if (repeated >= 0) {
          if (repeated > length) {
            samples++;
            repeated -= length + 1;
          }
          if (problem != null) {
            malformed++;
            if (reported.size() < REPORTED_MALFORMED) {
              reported.add(new ParseSummary.MalformedLine(lineNumber, problem));
            }
          }
          p = repeated + 1;
          continue;
        }
      }
      int newline = p;
      while (newline < length && page[newline] != '\n') {
        newline++;
      }
      int end = newline > p && page[newline - 1] == '\r' ? newline - 1 : newline;
      problem = null;
      boolean sample =
          series == null
              ? parseLine(page, p, end, lineNumber, sink)
              : parseRemembered(page, p, end, lineNumber, series);
      if (sample) {
        samples++;
      } else if (problem != null) {
        malformed++;
        if (reported.size() < REPORTED_MALFORMED) {
          reported.add(new ParseSummary.MalformedLine(lineNumber, problem));
        }
      }
      if (newline == length && skipBlanks(page, p, end) < end) {
        malformed++;
        if (reported.size() < REPORTED_MALFORMED) {
          reported.add(
              new ParseSummary.MalformedLine(
                  lineNumber,
                  "the page ends in the middle of this line (no final newline): it was cut short"));
        }
      }
      p = newline + 1;
    }
    if (series != null) {
      memory.end(lineNumber);
    }
    return new ParseSummary(lineNumber, samples, malformed, reported);
  }

  /**
   * Reads the line at {@code start} if it repeats the previous page's line at the same place, as
   * most lines of a steady exporter do: its remembered key (or whole comment) is recognised by one
   * vectorised comparison straight from the line's start, and only the bytes after it are scanned
   * for the line's end, instead of scanning every byte of the line first. Returns the index of the
   * line's newline (or {@code length} for the last line), plus {@code length + 1} if the line was a
   * sample; -1 if the line is not such a repeat or does not read cleanly, in which case nothing was
   * filed or remembered and the line is read the usual way.
   */
  private int repeatedLineEnd(byte[] b, int start, int length, int lineNumber, SeriesSink series) {
    if (start == length || isBlank(b[start])) {
      return -1;
    }
    int ordinal = lineNumber - 1;
    Object handle = memory.recallAt(ordinal, b, start, length);
    if (handle == null) {
      return -1;
    }
    int after = start + memory.keyLength();
    int newline = after;
    while (newline < length && b[newline] != '\n') {
      newline++;
    }
    if (handle instanceof LineMemory.WholeLine whole) {
      if (newline == length) {
        return -1;
      }
      memory.repeated(ordinal);
      declared(whole);
      return newline;
    }
    if (newline == length) {
      return -1;
    }
    int end = newline > after && b[newline - 1] == '\r' ? newline - 1 : newline;
    int valueStart = skipBlanks(b, after, end);
    if (valueStart == end || b[valueStart] == '{' || !readValue(b, valueStart, end, start)) {
      return -1;
    }
    memory.repeated(ordinal);
    series.repeat(handle, lineValue, lineHasTimestamp, lineTimestamp);
    problem = families.sample(memory.recalledName(), null, lineValue, numbers);
    return newline + length + 1;
  }

  /**
   * Reads a line for a {@link SeriesSink}: a line that repeats the previous page's line at the same
   * place is recognised by its bytes (only the value and timestamp of a sample are read); any other
   * is read in full and remembered for the next page. Returns true for a sample.
   */
  private boolean parseRemembered(byte[] b, int start, int end, int lineNumber, SeriesSink series) {
    int ordinal = lineNumber - 1;
    int p = skipBlanks(b, start, end);
    if (p == end) {
      memory.record(ordinal, b, p, p, null);
      return false;
    }
    Object handle = memory.recallAt(ordinal, b, p, end);
    if (handle instanceof LineMemory.WholeLine whole) {
      memory.repeated(ordinal);
      declared(whole);
      return false;
    }
    if (handle != null) {
      int valueStart = skipBlanks(b, p + memory.keyLength(), end);
      // A remembered series without labels followed by "{" is a labelled line: read it in full.
      if (valueStart == end || b[valueStart] != '{') {
        if (!readValue(b, valueStart, end, p)) {
          // Forgotten: every handle the memory keeps has been filed on the page before.
          memory.record(ordinal, b, p, p, null);
          return false;
        }
        memory.repeated(ordinal);
        series.repeat(handle, lineValue, lineHasTimestamp, lineTimestamp);
        problem = families.sample(memory.recalledName(), null, lineValue, numbers);
        return true;
      }
    }
    if (b[p] == '#') {
      problem = readComment(b, p + 1, end, series);
      Object remembered = null;
      if (problem == null) {
        remembered =
            metadata.declaredName() == null
                ? LineMemory.WHOLE_LINE
                : new LineMemory.Declaration(metadata.declaredName(), metadata.declaredType());
      }
      memory.record(ordinal, b, p, end, remembered);
      return false;
    }
    filedHandle = null;
    boolean sample = parseSample(b, p, end, lineNumber, series);
    memory.record(ordinal, b, p, keyEnd, sample ? filedHandle : null, line.name());
    return sample;
  }

  /**
   * Returns true for a sample; false for a blank, comment or malformed line (then {@code problem}
   * is set).
   */
  private boolean parseLine(byte[] b, int start, int end, int lineNumber, ExpositionSink sink) {
    int p = skipBlanks(b, start, end);
    if (p == end) {
      return false;
    }
    if (b[p] == '#') {
      problem = readComment(b, p + 1, end, sink);
      return false;
    }
    return parseSample(b, p, end, lineNumber, sink);
  }

  /** Reads a comment line and enters what it declares; returns why it is malformed, or null. */
  private String readComment(byte[] b, int start, int end, ExpositionSink sink) {
    String malformed = metadata.read(b, start, end, sink);
    if (malformed != null || metadata.declaredName() == null) {
      return malformed;
    }
    return families.declare(metadata.declaredName(), metadata.declaredType());
  }

  /**
   * Enters what a repeated comment line declares; sets {@code problem} if the page breaks a rule.
   */
  private void declared(LineMemory.WholeLine whole) {
    if (whole instanceof LineMemory.Declaration d) {
      problem = families.declare(d.name, d.type);
    }
  }

  private boolean parseSample(byte[] b, int start, int end, int lineNumber, ExpositionSink sink) {
    if (!isMetricNameStart(b[start])) {
      return malformed("expected a metric name, found '" + snippet(b, start, end) + "'");
    }
    int p = start + 1;
    while (p < end && isMetricNameChar(b[p])) {
      p++;
    }
    if (p - start > MAX_NAME_BYTES) {
      return malformed(
          "metric name '"
              + snippet(b, start, p)
              + "' is "
              + (p - start)
              + " bytes long, more than "
              + MAX_NAME_BYTES);
    }
    if (p < end && !isBlank(b[p]) && b[p] != '{') {
      return malformed(
          "invalid character '"
              + (char) (b[p] & 0xff)
              + "' in metric name '"
              + snippet(b, start, end)
              + "'");
    }
    String name = metricNames.get(0, b, start, p);
    line.start(b, name, lineNumber);
    keyEnd = p;
    p = skipBlanks(b, p, end);
    if (p < end && b[p] == '{') {
      p = parseLabels(b, p + 1, end, name);
      if (p < 0) {
        return false;
      }
      keyEnd = p;
      p = skipBlanks(b, p, end);
    }
    if (!readValue(b, p, end, start)) {
      return false;
    }
    line.finish(lineValue, lineHasTimestamp, lineTimestamp);
    String broken = families.sample(name, line, lineValue, numbers);
    if (broken != null) {
      return malformed(broken);
    }
    if (sink == memorySink) {
      filedHandle = memorySink.file(line);
    } else {
      sink.sample(line);
    }
    return true;
  }

  /**
   * Reads the value and optional timestamp that start at {@code p} (after the blanks that follow
   * the series) into {@code lineValue}, {@code lineHasTimestamp} and {@code lineTimestamp}; returns
   * false (with {@code problem} set) if they are malformed. {@code nameStart} is where the line's
   * metric name starts, for the message.
   */
  private boolean readValue(byte[] b, int p, int end, int nameStart) {
    if (p == end) {
      return malformed(nameAt(b, nameStart, end) + " has no value");
    }
    int valueStart = p;
    while (p < end && !isBlank(b[p])) {
      p++;
    }
    if (!numbers.readFloat(b, valueStart, p)) {
      return malformed(
          "value '"
              + snippet(b, valueStart, p)
              + "' of "
              + nameAt(b, nameStart, end)
              + " is not a number");
    }
    lineValue = numbers.number();
    p = skipBlanks(b, p, end);
    if (p == end) {
      lineHasTimestamp = false;
      lineTimestamp = 0;
      return true;
    }
    int timestampStart = p;
    while (p < end && !isBlank(b[p])) {
      p++;
    }
    if (!numbers.readInteger(b, timestampStart, p)) {
      return malformed(
          "timestamp '"
              + snippet(b, timestampStart, p)
              + "' of "
              + nameAt(b, nameStart, end)
              + " is not an integer number of milliseconds");
    }
    lineTimestamp = numbers.integer();
    p = skipBlanks(b, p, end);
    if (p != end) {
      return malformed(
          "unexpected text after the timestamp of "
              + nameAt(b, nameStart, end)
              + ": '"
              + snippet(b, p, end)
              + "'");
    }
    lineHasTimestamp = true;
    return true;
  }

  /** Returns the metric name that starts at {@code start}; for messages. */
  private String nameAt(byte[] b, int start, int end) {
    int p = start;
    while (p < end && isMetricNameChar(b[p])) {
      p++;
    }
    return metricNames.get(0, b, start, p);
  }

  /**
   * Reads the labels after '{'; returns the position after '}' or -1 (then {@code problem} is set).
   */
  private int parseLabels(byte[] b, int start, int end, String metric) {
    int p = start;
    while (true) {
      p = skipBlanks(b, p, end);
      if (p == end) {
        return fail("label set of " + metric + " is not closed with '}'");
      }
      if (b[p] == '}') {
        return p + 1;
      }
      if (!isLabelNameStart(b[p])) {
        return fail(
            "expected a label name in " + metric + "{...}, found '" + snippet(b, p, end) + "'");
      }
      int nameStart = p;
      while (p < end && isLabelNameChar(b[p])) {
        p++;
      }
      if (p - nameStart > MAX_NAME_BYTES) {
        return fail(
            "a label name of "
                + metric
                + " is "
                + (p - nameStart)
                + " bytes long, more than "
                + MAX_NAME_BYTES);
      }
      if (line.labelCount() >= MAX_LABELS) {
        return fail(metric + " has more than " + MAX_LABELS + " labels");
      }
      String label = labelNames.get(line.labelCount(), b, nameStart, p);
      if (label.equals("__name__")) {
        return fail("label name \"__name__\" is reserved (on " + metric + ")");
      }
      p = skipBlanks(b, p, end);
      if (p == end || b[p] != '=') {
        return fail("label " + label + " of " + metric + " has no '='");
      }
      p = skipBlanks(b, p + 1, end);
      if (p == end || b[p] != '"') {
        return fail("value of label " + label + " of " + metric + " is not in double quotes");
      }
      int valueStart = ++p;
      boolean hasEscapes = false;
      boolean nonAscii = false;
      while (p < end && b[p] != '"') {
        if (b[p] == '\\') {
          hasEscapes = true;
          p++;
          if (p < end && b[p] != '\\' && b[p] != '"' && b[p] != 'n') {
            return fail(
                "invalid escape sequence '\\"
                    + (char) (b[p] & 0xff)
                    + "' in the value of label "
                    + label
                    + " of "
                    + metric
                    + " (only \\\\, \\\" and \\n)");
          }
        } else if (b[p] < 0) {
          nonAscii = true;
        }
        p++;
      }
      if (p >= end) {
        return fail("value of label " + label + " of " + metric + " is not closed with '\"'");
      }
      if (p - valueStart > MAX_LABEL_VALUE_BYTES) {
        return fail(
            "value of label "
                + label
                + " of "
                + metric
                + " is "
                + (p - valueStart)
                + " bytes long, more than "
                + MAX_LABEL_VALUE_BYTES);
      }
      if (nonAscii && !isUtf8(b, valueStart, p)) {
        return fail("value of label " + label + " of " + metric + " is not valid UTF-8");
      }
      if (!line.addLabel(label, valueStart, p, hasEscapes)) {
        return fail("label " + label + " appears twice on " + metric);
      }
      p = skipBlanks(b, p + 1, end);
      if (p < end && b[p] == ',') {
        p++;
      } else if (p < end && b[p] == '}') {
        return p + 1;
      } else {
        return fail("expected ',' or '}' after label " + label + " of " + metric);
      }
    }
  }

  /** Returns true if {@code [from, to)} of {@code b} is well-formed UTF-8. */
  static boolean isUtf8(byte[] b, int from, int to) {
    int p = from;
    while (p < to) {
      int c = b[p] & 0xff;
      int more;
      int min;
      if (c < 0x80) {
        p++;
        continue;
      } else if (c >= 0xc2 && c <= 0xdf) {
        more = 1;
        min = 0x80;
      } else if (c >= 0xe0 && c <= 0xef) {
        more = 2;
        min = 0x800;
      } else if (c >= 0xf0 && c <= 0xf4) {
        more = 3;
        min = 0x10000;
      } else {
        return false;
      }
      if (p + more >= to) {
        return false;
      }
      int code = c & (0x3f >> more);
      for (int i = 1; i <= more; i++) {
        int next = b[p + i] & 0xff;
        if ((next & 0xc0) != 0x80) {
          return false;
        }
        code = (code << 6) | (next & 0x3f);
      }
      if (code < min || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) {
        return false;
      }
      p += more + 1;
    }
    return true;
  }

  private boolean malformed(String reason) {
    problem = reason;
    return false;
  }

  private int fail(String reason) {
    problem = reason;
    return -1;
  }

  static String snippet(byte[] b, int from, int to) {
    int end = trimEnd(b, from, Math.min(to, from + SNIPPET));
    String text = new String(b, from, end - from, UTF_8);
    return to - from > SNIPPET ? text + "..." : text;
  }

  static int skipBlanks(byte[] b, int p, int end) {
    while (p < end && isBlank(b[p])) {
      p++;
    }
    return p;
  }

  static int trimEnd(byte[] b, int from, int to) {
    while (to > from && isBlank(b[to - 1])) {
      to--;
    }
    return to;
  }

  static boolean isBlank(byte c) {
    return c == ' ' || c == '\t';
  }

  static boolean isMetricNameStart(byte c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':';
  }

  static boolean isMetricNameChar(byte c) {
    return isMetricNameStart(c) || (c >= '0' && c <= '9');
  }

  private static boolean isLabelNameStart(byte c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
  }

  private static boolean isLabelNameChar(byte c) {
    return isLabelNameStart(c) || (c >= '0' && c <= '9');
  }
}
