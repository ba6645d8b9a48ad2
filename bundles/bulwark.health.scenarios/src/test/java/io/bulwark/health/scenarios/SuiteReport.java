package io.bulwark.health.scenarios;

import io.bulwark.api.health.FindingKind;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The scores of a suite run, per finding kind and overall: true and false positives, false
 * negatives, precision, recall, and the median and maximum detection latency in seconds and in
 * sampling intervals; printed as a table, followed by every miss and false alarm with its scenario.
 */
final class SuiteReport {
  private final List<ScenarioScore> scores;
  private final List<String> detectors;
  private final List<String> skipped;
  private final ScenarioReplay.Run run;

  SuiteReport(List<ScenarioScore> scores, List<String> detectors, List<String> skipped) {
    this(scores, detectors, skipped, ScenarioReplay.Run.STANDARD);
  }

  SuiteReport(
      List<ScenarioScore> scores,
      List<String> detectors,
      List<String> skipped,
      ScenarioReplay.Run run) {
    this.scores = List.copyOf(scores);
    this.detectors = List.copyOf(detectors);
    this.skipped = List.copyOf(skipped);
    this.run = run;
  }

  ScenarioReplay.Run run() {
    return run;
  }

  /** The counts of one kind (or of all kinds, {@code kind} = "overall"). */
  record KindScore(String kind, int labels, int tp, int fp, int fn, int[] latencies) {
    double precision() {
      return tp + fp == 0 ? Double.NaN : (double) tp / (tp + fp);
    }

    double recall() {
      return tp + fn == 0 ? Double.NaN : (double) tp / (tp + fn);
    }

    double medianLatency() {
      if (latencies.length == 0) {
        return Double.NaN;
      }
      int[] s = latencies.clone();
      Arrays.sort(s);
      int m = s.length / 2;
      return s.length % 2 == 1 ? s[m] : (s[m - 1] + s[m]) / 2.0;
    }

    int maxLatency() {
      return Arrays.stream(latencies).max().orElse(-1);
    }

    /** Returns the nearest-rank {@code p}-th percentile of the latencies, or -1 without any. */
    int percentileLatency(double p) {
      if (latencies.length == 0) {
        return -1;
      }
      int[] s = latencies.clone();
      Arrays.sort(s);
      int rank = (int) Math.ceil(p / 100.0 * s.length);
      return s[Math.max(0, Math.min(s.length - 1, rank - 1))];
    }
  }

  List<ScenarioScore> scores() {
    return scores;
  }

  /** Returns the kinds in the report: the built-in ones first, then any other seen. */
  List<String> kinds() {
    Set<String> kinds = new LinkedHashSet<>(FindingKind.BUILT_IN);
    for (ScenarioScore s : scores) {
      s.scenario().expected().forEach(e -> kinds.add(e.kind()));
      s.falsePositives().forEach(f -> kinds.add(f.kind()));
    }
    return new ArrayList<>(kinds);
  }

  KindScore kind(String kind) {
    int labels = 0;
    int tp = 0;
    int fp = 0;
    int fn = 0;
    List<Integer> latencies = new ArrayList<>();
    for (ScenarioScore s : scores) {
      boolean all = kind == null;
      labels +=
          (int) s.scenario().expected().stream().filter(e -> all || e.kind().equals(kind)).count();
      for (ScenarioScore.Match m : s.matches()) {
        if (all || m.label().kind().equals(kind)) {
          tp++;
          latencies.add(m.latencySeconds());
        }
      }
      fp += (int) s.falsePositives().stream().filter(f -> all || f.kind().equals(kind)).count();
      fn += (int) s.falseNegatives().stream().filter(e -> all || e.kind().equals(kind)).count();
    }
    return new KindScore(
        kind == null ? "overall" : kind,
        labels,
        tp,
        fp,
        fn,
        latencies.stream().mapToInt(Integer::intValue).toArray());
  }

  KindScore overall() {
    return kind(null);
  }

  /** Returns the report as text: the table, then the misses and false alarms, then timings. */
  String render() {
    StringBuilder out = new StringBuilder();
    double interval = run.scrapeMillis() / 1000.0;
    out.append(
        String.format(
            Locale.ROOT,
            "Scenario suite: %d scenarios, %s, evaluation every %.0f s%n",
            scores.size(),
            run,
            ScenarioReplay.INTERVAL_MILLIS / 1000.0));
    out.append("Detectors: ").append(String.join(", ", detectors)).append('\n');
    for (String s : skipped) {
      out.append("Detector not built: ").append(s).append('\n');
    }
    String header =
        String.format(
            Locale.ROOT,
            "%-22s %6s %4s %4s %4s %9s %7s %9s %7s %7s %9s %7s%n",
            "kind",
            "labels",
            "TP",
            "FP",
            "FN",
            "precision",
            "recall",
            "median s",
            "p90 s",
            "max s",
            "median iv",
            "max iv");
    out.append('\n').append(header);
    out.append("-".repeat(header.length() - 1)).append('\n');
    for (String k : kinds()) {
      out.append(row(kind(k), interval));
    }
    out.append("-".repeat(header.length() - 1)).append('\n');
    out.append(row(overall(), interval));
    out.append('\n');
    for (ScenarioScore s : scores) {
      for (ExpectedFinding e : s.falseNegatives()) {
        out.append(
            String.format(
                Locale.ROOT,
                "MISSED       %-34s %s on node %d GPU %d from %d s%n",
                s.scenario().name(),
                e.kind(),
                e.node(),
                e.gpu(),
                e.onsetSecond()));
      }
      for (ObservedFinding f : s.falsePositives()) {
        out.append(
            String.format(
                Locale.ROOT,
                "FALSE ALARM  %-34s %s on node %d GPU %d at %d s: %s%n",
                s.scenario().name(),
                f.kind(),
                f.node(),
                f.gpu(),
                f.openSecond(),
                f.summary()));
      }
    }
    long total = scores.stream().mapToLong(ScenarioScore::wallMillis).sum();
    long worst = scores.stream().mapToLong(ScenarioScore::wallMillis).max().orElse(0);
    out.append(
        String.format(
            Locale.ROOT,
            "%nReplay time: %d ms in all, %d ms for the slowest scenario%n",
            total,
            worst));
    return out.toString();
  }

  private static String row(KindScore k, double interval) {
    return String.format(
        Locale.ROOT,
        "%-22s %6d %4d %4d %4d %9s %7s %9s %7s %7s %9s %7s%n",
        k.kind(),
        k.labels(),
        k.tp(),
        k.fp(),
        k.fn(),
        ratio(k.precision()),
        ratio(k.recall()),
        number(k.medianLatency()),
        k.maxLatency() < 0 ? "-" : String.valueOf(k.percentileLatency(90)),
        k.maxLatency() < 0 ? "-" : String.valueOf(k.maxLatency()),
        number(k.medianLatency() / interval),
        k.maxLatency() < 0 ? "-" : number(k.maxLatency() / interval));
  }

  private static String ratio(double v) {
    return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%.3f", v);
  }

  private static String number(double v) {
    return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%.1f", v);
  }
}
