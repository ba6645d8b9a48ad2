package io.bulwark.health.scenarios;

import static org.assertj.core.api.Assertions.assertThat;

import io.bulwark.testing.DetectorDiscovery;
import io.vertx.core.Vertx;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Proves the harness can fail: given a scenario and findings, when a label is wrong (another GPU,
 * another kind, an onset after the finding), then scoring counts a false negative and a false
 * positive instead of a match; and the same holds for a real replay scored against a wrong label.
 */
class ScoringSelfTest {
  private static final Scenario XID_SCENARIO =
      Scenario.parse(
          "self.json",
          "{\"name\":\"self\",\"category\":\"fault\",\"nodes\":1,\"gpusPerNode\":8,"
              + "\"durationSeconds\":60,\"expected\":[{\"kind\":\"xid\",\"node\":0,\"gpu\":3,"
              + "\"onset\":20,\"critical\":true}]}");

  @Test
  void findingOnTheLabelledGpuAfterOnsetIsATruePositiveWithItsLatency() {
    ScenarioScore score =
        score(
            new ObservedFinding("xid", 0, 3, 22, "x"),
            new ObservedFinding("xid", 0, 3, 50, "again"));
    assertThat(score.matches()).hasSize(1);
    assertThat(score.matches().get(0).latencySeconds()).isEqualTo(2);
    assertThat(score.repeats()).isEqualTo(1);
    assertThat(score.falsePositives()).isEmpty();
    assertThat(score.falseNegatives()).isEmpty();
  }

  @Test
  void findingOnAnotherGpuIsAFalsePositiveAndTheLabelAFalseNegative() {
    ScenarioScore score = score(new ObservedFinding("xid", 0, 4, 21, "wrong GPU"));
    assertThat(score.matches()).isEmpty();
    assertThat(score.falsePositives()).hasSize(1);
    assertThat(score.falseNegatives()).hasSize(1);
  }

  @Test
  void findingBeforeOnsetOrOfAnotherKindDoesNotMatch() {
    ScenarioScore score =
        score(
            new ObservedFinding("xid", 0, 3, 19, "too early"),
            new ObservedFinding("ecc-dbe", 0, 3, 21, "other kind"));
    assertThat(score.matches()).isEmpty();
    assertThat(score.falsePositives()).hasSize(2);
    assertThat(score.falseNegatives()).hasSize(1);
    SuiteReport report = new SuiteReport(List.of(score), List.of(), List.of());
    assertThat(report.overall().precision()).isZero();
    assertThat(report.overall().recall()).isZero();
    assertThat(report.render()).contains("MISSED").contains("FALSE ALARM");
  }

  @Test
  void realReplayScoredAgainstAWrongLabelFails() {
    Scenario real = ScenarioFiles.named("gpu-missing-vanished");
    ExpectedFinding right = real.expected().get(0);
    ExpectedFinding wrongGpu =
        new ExpectedFinding(
            right.kind(), right.node(), (right.gpu() + 1) % 8, right.onsetSecond(), true);
    Vertx vertx = Vertx.vertx();
    try {
      ScenarioReplay.Result result =
          new ScenarioReplay(vertx, () -> DetectorDiscovery.onClassPath().detectors())
              .replay(real.withExpected(List.of(wrongGpu)));
      ScenarioScore wrong = ScenarioScore.of(result);
      assertThat(wrong.matches()).isEmpty();
      assertThat(wrong.falseNegatives()).containsExactly(wrongGpu);
      assertThat(wrong.falsePositives())
          .extracting(ObservedFinding::kind, ObservedFinding::gpu)
          .contains(org.assertj.core.groups.Tuple.tuple(right.kind(), right.gpu()));
      ScenarioScore fixed =
          ScenarioScore.of(new ScenarioReplay.Result(real, result.findings(), result.wallMillis()));
      assertThat(fixed.falseNegatives()).isEmpty();
      assertThat(fixed.matches()).hasSize(1);
    } finally {
      vertx.close().toCompletionStage().toCompletableFuture().join();
    }
  }

  private static ScenarioScore score(ObservedFinding... findings) {
    return ScenarioScore.of(new ScenarioReplay.Result(XID_SCENARIO, List.of(findings), 0));
  }
}
