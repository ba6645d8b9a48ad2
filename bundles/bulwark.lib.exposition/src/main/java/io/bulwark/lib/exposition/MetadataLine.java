package io.bulwark.lib.exposition;

import static io.bulwark.lib.exposition.ExpositionParser.isBlank;
import static io.bulwark.lib.exposition.ExpositionParser.isMetricNameChar;
import static io.bulwark.lib.exposition.ExpositionParser.isMetricNameStart;
import static io.bulwark.lib.exposition.ExpositionParser.skipBlanks;
import static io.bulwark.lib.exposition.ExpositionParser.snippet;
import static java.nio.charset.StandardCharsets.UTF_8;

import java.util.Arrays;

/**
 * Reads the comment lines of an exposition page for {@link ExpositionParser}: {@code # HELP name
 * text} (with the escapes {@code \\} and {@code \n}) and {@code # TYPE name type}; any other
 * comment is ignored, and so are, as in Prometheus' expfmt, a HELP or TYPE line without a name, a
 * HELP line without text and a TYPE line without a type. The type is read as expfmt reads it: in
 * any case, {@code gauge_histogram} as {@code gaugehistogram}, and the rest of the line is the type
 * ("counter " with a trailing blank is not one). What a line declared is left in {@link
 * #declaredName()} and {@link #declaredType()}. Not thread-safe.
 */
final class MetadataLine {
  private static final String[] TYPES = {
    "counter", "gauge", "histogram", "summary", "untyped", "gaugehistogram", "gauge_histogram"
  };

  private final NameTable names;
  private String declaredName;
  private String declaredType;

  MetadataLine(NameTable names) {
    this.names = names;
  }

  /**
   * Reads the comment after '#' in {@code [start, end)} of {@code b}, handing HELP and TYPE to
   * {@code sink}. Returns why the line is malformed, or null.
   */
  String read(byte[] b, int start, int end, ExpositionSink sink) {
    declaredName = null;
    declaredType = null;
    int p = skipBlanks(b, start, end);
    int wordEnd = p;
    while (wordEnd < end && !isBlank(b[wordEnd])) {
      wordEnd++;
    }
    boolean help = is(b, p, wordEnd, "HELP");
    if (!help && !is(b, p, wordEnd, "TYPE")) {
      return null;
    }
    String keyword = help ? "HELP" : "TYPE";
    p = skipBlanks(b, wordEnd, end);
    int nameStart = p;
    if (p == end) {
      return null;
    }
    if (!isMetricNameStart(b[p])) {
      return "# " + keyword + " line with an invalid metric name '" + snippet(b, p, end) + "'";
    }
    while (p < end && isMetricNameChar(b[p])) {
      p++;
    }
    if (p < end && !isBlank(b[p])) {
      return "# "
          + keyword
          + " line with an invalid metric name '"
          + snippet(b, nameStart, end)
          + "'";
    }
    String metric = names.intern(b, nameStart, p);
    p = skipBlanks(b, p, end);
    if (p == end) {
      return null;
    }
    if (help) {
      sink.help(metric, unescapeHelp(b, p, end));
      declaredName = metric;
      return null;
    }
    int typeEnd = end;
    String type = knownType(b, p, typeEnd);
    if (type == null) {
      return "# TYPE of "
          + metric
          + " is '"
          + snippet(b, p, typeEnd)
          + "', not counter, gauge, histogram, summary or untyped";
    }
    sink.type(metric, type);
    declaredName = metric;
    declaredType = type;
    return null;
  }

  /** Returns the metric name the last line read declared HELP or TYPE for, or null. */
  String declaredName() {
    return declaredName;
  }

  /** Returns the type the last line read declared, or null (none, or a HELP line). */
  String declaredType() {
    return declaredType;
  }

  private static String unescapeHelp(byte[] b, int from, int to) {
    byte[] out = null;
    int n = 0;
    for (int p = from; p < to; p++) {
      if (b[p] == '\\' && p + 1 < to && (b[p + 1] == '\\' || b[p + 1] == 'n')) {
        if (out == null) {
          out = Arrays.copyOfRange(b, from, to);
          n = p - from;
        }
        out[n++] = b[++p] == 'n' ? (byte) '\n' : (byte) '\\';
      } else if (out != null) {
        out[n++] = b[p];
      }
    }
    return out == null ? new String(b, from, to - from, UTF_8) : new String(out, 0, n, UTF_8);
  }

  private static String knownType(byte[] b, int from, int to) {
    for (String type : TYPES) {
      if (isIgnoringCase(b, from, to, type)) {
        return type.equals("gauge_histogram") ? "gaugehistogram" : type;
      }
    }
    return null;
  }

  private static boolean isIgnoringCase(byte[] b, int from, int to, String word) {
    if (to - from != word.length()) {
      return false;
    }
    for (int i = 0; i < word.length(); i++) {
      int c = b[from + i];
      if (c >= 'A' && c <= 'Z') {
        c += 'a' - 'A';
      }
      if (c != word.charAt(i)) {
        return false;
      }
    }
    return true;
  }

  private static boolean is(byte[] b, int from, int to, String word) {
    if (to - from != word.length()) {
      return false;
    }
    for (int i = 0; i < word.length(); i++) {
      if (b[from + i] != word.charAt(i)) {
        return false;
      }
    }
    return true;
  }
}
