package io.bulwark.sim.internal;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A strict reader of the Prometheus text exposition format (version 0.0.4) for tests: every line
 * must be a HELP, TYPE or sample line of the right shape, each metric has one HELP then one TYPE
 * before its samples, samples of a metric are contiguous, and no series appears twice. Throws
 * {@link AssertionError} naming the offending line.
 */
final class PrometheusText {
  private static final Pattern NAME = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*");
  private static final Pattern HELP = Pattern.compile("# HELP (" + NAME + ") ([^\\n]*)");
  private static final Pattern TYPE =
      Pattern.compile("# TYPE (" + NAME + ") (counter|gauge|histogram|summary|untyped)");
  private static final Pattern SAMPLE = Pattern.compile("(" + NAME + ")(?:\\{(.*)\\})? (\\S+)");
  private static final Pattern LABEL =
      Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\\\n]|\\\\[\\\\\"n])*)\"");
  private static final Pattern VALUE =
      Pattern.compile("[+-]?(?:\\d+(?:\\.\\d+)?(?:[eE][+-]?\\d+)?|Inf)|NaN");

  /** One sample: metric name, labels (in page order) and value. */
  record Sample(String name, Map<String, String> labels, double value, String rawValue) {
    String label(String key) {
      return labels.get(key);
    }
  }

  /** A parsed page: its samples in order, and each metric's help and type. */
  record Page(List<Sample> samples, Map<String, String> types, Map<String, String> helps) {
    List<Sample> named(String name) {
      return samples.stream().filter(s -> s.name().equals(name)).toList();
    }

    /**
     * Returns the value of {@code name} on GPU {@code gpu}, or null if the page has no such line.
     */
    Double value(String name, int gpu) {
      return samples.stream()
          .filter(s -> s.name().equals(name) && String.valueOf(gpu).equals(s.label("gpu")))
          .map(Sample::value)
          .findFirst()
          .orElse(null);
    }
  }

  private PrometheusText() {}

  static Page parse(String text) {
    if (!text.isEmpty() && !text.endsWith("\n")) {
      throw new AssertionError("page does not end with a newline");
    }
    List<Sample> samples = new ArrayList<>();
    Map<String, String> types = new HashMap<>();
    Map<String, String> helps = new HashMap<>();
    Set<String> series = new HashSet<>();
    Set<String> closed = new HashSet<>();
    String current = null;
    int lineNo = 0;
    String body = text.isEmpty() ? "" : text.substring(0, text.length() - 1);
    for (String line : body.isEmpty() ? new String[0] : body.split("\n", -1)) {
      lineNo++;
      String where = "line " + lineNo + " '" + line + "': ";
      Matcher m;
      if ((m = HELP.matcher(line)).matches()) {
        String name = m.group(1);
        if (helps.containsKey(name) || types.containsKey(name) || closed.contains(name)) {
          throw new AssertionError(where + "HELP must come once, before TYPE and samples");
        }
        if (current != null) {
          closed.add(current);
        }
        current = name;
        helps.put(name, m.group(2));
      } else if ((m = TYPE.matcher(line)).matches()) {
        String name = m.group(1);
        if (!name.equals(current) || types.containsKey(name)) {
          throw new AssertionError(where + "TYPE must follow the metric's HELP, once");
        }
        types.put(name, m.group(2));
      } else if (line.startsWith("#")) {
        throw new AssertionError(where + "malformed comment line");
      } else if ((m = SAMPLE.matcher(line)).matches()) {
        String name = m.group(1);
        if (!name.equals(current) || !types.containsKey(name)) {
          throw new AssertionError(where + "sample outside its metric's HELP/TYPE block");
        }
        Map<String, String> labels = labels(m.group(2), where);
        if (!VALUE.matcher(m.group(3)).matches()) {
          throw new AssertionError(where + "bad value");
        }
        if (!series.add(name + labels)) {
          throw new AssertionError(where + "duplicate series");
        }
        samples.add(
            new Sample(
                name,
                labels,
                Double.parseDouble(m.group(3).replace("Inf", "Infinity")),
                m.group(3)));
      } else {
        throw new AssertionError(where + "not a HELP, TYPE or sample line");
      }
    }
    return new Page(samples, types, helps);
  }

  private static Map<String, String> labels(String body, String where) {
    Map<String, String> labels = new LinkedHashMap<>();
    if (body == null || body.isEmpty()) {
      return labels;
    }
    Matcher m = LABEL.matcher(body);
    int at = 0;
    while (at < body.length()) {
      if (!m.find(at) || m.start() != at) {
        throw new AssertionError(where + "malformed label at " + at);
      }
      if (labels.put(m.group(1), m.group(2)) != null) {
        throw new AssertionError(where + "duplicate label " + m.group(1));
      }
      at = m.end();
      if (at < body.length()) {
        if (body.charAt(at) != ',') {
          throw new AssertionError(where + "labels must be separated by commas");
        }
        at++;
      }
    }
    return labels;
  }
}
