package io.bulwark.health.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.bulwark.api.fleet.NodeId;
import io.bulwark.api.health.Condition;
import io.bulwark.api.health.FindingKind;
import io.bulwark.api.health.FindingQuery;
import io.bulwark.api.health.Severity;
import io.bulwark.api.system.SubsystemState;
import io.bulwark.api.system.SubsystemStatus;
import io.bulwark.testing.InMemoryFleet;
import io.bulwark.testing.InMemoryTelemetry;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The health engine reports on itself as the {@code engine} subsystem: up while it evaluates,
 * degraded while the store refuses its findings or an evaluation fails, down once evaluations stop.
 */
class EngineHealthTest {
  private static final long START = 1_700_000_000_000L;
  private static final long TICK = 2_000;

  private final ManualClock clock = new ManualClock(START);
  private final InMemoryTelemetry telemetry = new InMemoryTelemetry();
  private final InMemoryFindings store = new InMemoryFindings();
  private final ScriptedDetector xid = new ScriptedDetector("xid");
  private final HealthEngine engine =
      new HealthEngine(
          telemetry, new InMemoryFleet(), store, new HealthEngineOptions(TICK, 10_000, 0), clock);

  {
    telemetry.report("gpu-node-007", 8, "H100", START);
    engine.addDetector(xid);
  }

  private void tick() {
    clock.advance(TICK);
    telemetry.scrapedAt("gpu-node-007", clock.millis());
    engine.evaluate();
  }

  @Test
  void upWhileEvaluatingWithItsFiguresAsGauges() {
    tick();
    SubsystemStatus s = engine.status();
    assertThat(s.subsystem()).isEqualTo("engine");
    assertThat(s.state()).isEqualTo(SubsystemState.UP);
    assertThat(s.summary()).contains("evaluating every 2000 ms with 1 detector(s)");
    assertThat(s.measurements())
        .containsEntry("bulwark_engine_evaluations_total", 1.0)
        .containsEntry("bulwark_engine_detectors", 1.0)
        .containsEntry("bulwark_engine_unsaved_finding_changes", 0.0);
  }

  @Test
  void degradedWhileTheStoreRefusesItsFindingsWhichStayVisible() {
    store.refuseWrites = true;
    xid.reports(
        List.of(
            new Condition(
                FindingKind.XID,
                NodeId.of("gpu-node-007"),
                3,
                Severity.CRITICAL,
                "XID 79",
                Map.of(),
                "",
                1.0)));
    tick();

    SubsystemStatus s = engine.status();
    assertThat(s.state()).isEqualTo(SubsystemState.DEGRADED);
    assertThat(s.summary()).contains("1 finding change(s) wait to be stored");
    assertThat(engine.findings(FindingQuery.open())).hasSize(1);

    store.refuseWrites = false;
    tick();
    assertThat(engine.status().state()).isEqualTo(SubsystemState.UP);
  }

  @Test
  void downWhenNoEvaluationCompletesForThreeIntervalsOrThirtySeconds() {
    tick();
    clock.advance(29_000);
    assertThat(engine.status().state()).isEqualTo(SubsystemState.UP);
    clock.advance(2_000);
    SubsystemStatus s = engine.status();
    assertThat(s.state()).isEqualTo(SubsystemState.DOWN);
    assertThat(s.summary()).contains("no evaluation has completed for 31 s");
    assertThat(s.action()).contains("bulwark.health");
  }
}
