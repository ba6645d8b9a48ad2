package io.bulwark.health.scenarios;

import java.util.ArrayList;
import java.util.List;

/**
 * How one replay scores against its labels: a finding of the labelled kind on the labelled node and
 * GPU that opens at or after the onset is a true positive (its latency is open time minus onset;
 * later findings for the same label are repeats, not errors), any other finding is a false
 * positive, and a label no finding matched is a false negative.
 */
record ScenarioScore(
    Scenario scenario,
    List<Match> matches,
    List<ObservedFinding> falsePositives,
    List<ExpectedFinding> falseNegatives,
    int repeats,
    long wallMillis) {

  /** A label and the first finding that matched it. */
  record Match(ExpectedFinding label, ObservedFinding finding) {
    int latencySeconds() {
      return finding.openSecond() - label.onsetSecond();
    }
  }

  static ScenarioScore of(ScenarioReplay.Result result) {
    Scenario scenario = result.scenario();
    List<ExpectedFinding> open = new ArrayList<>(scenario.expected());
    List<ExpectedFinding> matched = new ArrayList<>();
    List<Match> matches = new ArrayList<>();
    List<ObservedFinding> falsePositives = new ArrayList<>();
    int repeats = 0;
    for (ObservedFinding f : result.findings()) {
      ExpectedFinding label = find(open, f);
      if (label != null) {
        open.remove(label);
        matched.add(label);
        matches.add(new Match(label, f));
      } else if (find(matched, f) != null) {
        repeats++;
      } else {
        falsePositives.add(f);
      }
    }
    return new ScenarioScore(
        scenario, matches, falsePositives, List.copyOf(open), repeats, result.wallMillis());
  }

  private static ExpectedFinding find(List<ExpectedFinding> labels, ObservedFinding f) {
    for (ExpectedFinding e : labels) {
      if (e.kind().equals(f.kind())
          && e.node() == f.node()
          && e.gpu() == f.gpu()
          && f.openSecond() >= e.onsetSecond()) {
        return e;
      }
    }
    return null;
  }
}
