package io.bulwark.health.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.bulwark.api.fleet.NodeId;
import io.bulwark.api.health.Condition;
import io.bulwark.api.health.DetectionContext;
import io.bulwark.api.health.Severity;
import io.bulwark.testing.InMemoryTelemetry;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A detector that says it needs to judge only every so often is asked at that pace, and between two
 * of its judgements the engine holds what it last reported, so its findings neither flap nor
 * resolve; one that fails is asked again at the next evaluation.
 */
class DetectorRosterTest {
  private static final long START = 1_700_000_000_000L;

  private final DetectorRoster roster = new DetectorRoster();
  private final ScriptedDetector slow =
      new ScriptedDetector("slow") {
        @Override
        public long evaluationIntervalMillis() {
          return 10_000;
        }
      };
  private final ScriptedDetector every = new ScriptedDetector("every");

  @Test
  void aDetectorWithAnIntervalIsAskedAtItsPaceAndItsConditionsAreHeldBetween() {
    roster.add(slow);
    roster.add(every);
    Condition lagging = condition();
    slow.reports(List.of(lagging));

    for (long t = 0; t <= 20_000; t += 2_000) {
      DetectorRoster.Evaluation e = roster.evaluateAll(context(START + t));
      // The condition went away at +4 s; the detector says so when it next judges, at +10 s.
      List<Condition> held = t < 10_000 ? List.of(lagging) : List.of();
      assertThat(e.reported().get("slow")).as("at +%d ms", t).isEqualTo(held);
      if (t == 4_000) {
        slow.reports(List.of());
      }
    }

    assertThat(slow.seen)
        .extracting(DetectionContext::nowMillis)
        .containsExactly(START, START + 10_000, START + 20_000);
    assertThat(every.seen).hasSize(11);
    assertThat(roster.judgeNanos()).containsKeys("slow", "every");
  }

  @Test
  void aDetectorThatFailedIsAskedAgainAtTheNextEvaluation() {
    roster.add(slow);
    slow.fails(new IllegalStateException("telemetry away"));
    assertThat(roster.evaluateAll(context(START)).failed()).containsExactly("slow");
    slow.reports(List.of(condition()));
    assertThat(roster.evaluateAll(context(START + 2_000)).reported().get("slow")).hasSize(1);
    assertThat(slow.seen).hasSize(2);
  }

  private static DetectionContext context(long now) {
    return new EvaluationContext(new InMemoryTelemetry(), List.of(), now);
  }

  private static Condition condition() {
    return new Condition(
        "straggler",
        NodeId.of("gpu-node-007"),
        3,
        Severity.WARNING,
        "GPU 3 lags",
        Map.of("metric", "test"),
        "Drain gpu-node-007",
        0.9);
  }
}
