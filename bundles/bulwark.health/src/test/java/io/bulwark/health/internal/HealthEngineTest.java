package io.bulwark.health.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.bulwark.api.fleet.Gpu;
import io.bulwark.api.fleet.NodeId;
import io.bulwark.api.health.Condition;
import io.bulwark.api.health.DetectionContext;
import io.bulwark.api.health.Finding;
import io.bulwark.api.health.FindingKind;
import io.bulwark.api.health.FindingQuery;
import io.bulwark.api.health.FindingState;
import io.bulwark.api.health.Severity;
import io.bulwark.testing.InMemoryFleet;
import io.bulwark.testing.InMemoryTelemetry;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class HealthEngineTest {
  private static final long START = 1_700_000_000_000L;
  private static final long TICK = 2_000;

  private final ManualClock clock = new ManualClock(START);
  private final InMemoryTelemetry telemetry = new InMemoryTelemetry();
  private final InMemoryFleet fleet = new InMemoryFleet();
  private final InMemoryFindings store = new InMemoryFindings();
  private final ScriptedDetector xid = new ScriptedDetector("xid");
  private final List<Finding> told = new ArrayList<>();
  private HealthEngine engine;

  @BeforeEach
  void given_a_node_with_eight_gpus_and_an_engine() {
    telemetry.report("gpu-node-007", 8, "H100", START);
    engine = newEngine();
  }

  private HealthEngine newEngine() {
    HealthEngine e =
        new HealthEngine(telemetry, fleet, store, new HealthEngineOptions(TICK, 10_000, 0), clock);
    e.addDetector(xid);
    e.addListener(told::add);
    return e;
  }

  private void tick() {
    clock.advance(TICK);
    telemetry.scrapedAt("gpu-node-007", clock.millis());
    engine.evaluate();
  }

  private static Condition condition(
      String kind, String node, int gpu, Severity severity, String summary, double factor) {
    return new Condition(
        kind,
        NodeId.of(node),
        gpu,
        severity,
        summary,
        Map.of("metric", "test"),
        "Drain " + node,
        factor);
  }

  private static Condition xid79(int gpu) {
    return condition(
        FindingKind.XID, "gpu-node-007", gpu, Severity.CRITICAL, "XID 79 on GPU " + gpu, 1.0);
  }

  @Test
  void a_finding_opened_before_its_gpu_was_named_takes_the_uuid_when_it_is() {
    telemetry.report(
        NodeId.of("gpu-node-007"), List.of(new io.bulwark.api.fleet.Gpu(3, "", "H100")), START);
    xid.reports(List.of(xid79(3)));
    tick();
    assertThat(engine.findings(FindingQuery.open()))
        .singleElement()
        .satisfies(f -> assertThat(f.gpuUuid()).isEmpty());

    telemetry.report("gpu-node-007", 8, "H100", clock.millis());
    tick();

    assertThat(engine.findings(FindingQuery.open()))
        .singleElement()
        .satisfies(f -> assertThat(f.gpuUuid()).isEqualTo("GPU-gpu-node-007-3"));
    assertThat(store.find(FindingQuery.open()))
        .as("written back at once")
        .singleElement()
        .satisfies(f -> assertThat(f.gpuUuid()).isEqualTo("GPU-gpu-node-007-3"));
  }

  @Test
  void a_reported_condition_opens_a_finding_at_once_and_tells_the_listeners() {
    xid.reports(List.of(xid79(3)));
    tick();

    List<Finding> open = engine.findings(FindingQuery.open());
    assertThat(open)
        .singleElement()
        .satisfies(
            f -> {
              assertThat(f.kind()).isEqualTo("xid");
              assertThat(f.gpu()).isEqualTo(3);
              assertThat(f.severity()).isEqualTo(Severity.CRITICAL);
              assertThat(f.firstSeen().toEpochMilli()).isEqualTo(clock.millis());
              assertThat(f.recommendedAction()).isEqualTo("Drain gpu-node-007");
            });
    assertThat(store.all()).extracting(Finding::id).containsExactly(open.get(0).id());
    assertThat(told).extracting(Finding::id).containsExactly(open.get(0).id());
  }

  @Test
  void
      a_condition_still_reported_updates_the_finding_but_is_stored_only_on_change_or_every_ten_seconds() {
    xid.reports(List.of(xid79(3)));
    tick();
    String id = store.all().get(0).id();

    tick();
    tick();
    assertThat(store.saved).hasSize(1);
    assertThat(engine.findings(FindingQuery.open()))
        .singleElement()
        .satisfies(f -> assertThat(f.occurrences()).isEqualTo(3));

    xid.reports(
        List.of(condition(FindingKind.XID, "gpu-node-007", 3, Severity.WARNING, "XID 999", 1.0)));
    tick();
    assertThat(store.saved).hasSize(2);
    assertThat(store.get(id))
        .get()
        .satisfies(
            f -> {
              assertThat(f.severity()).isEqualTo(Severity.WARNING);
              assertThat(f.summary()).isEqualTo("XID 999");
              assertThat(f.occurrences()).isEqualTo(4);
            });

    for (int i = 0; i < 5; i++) {
      tick();
    }
    assertThat(store.saved).hasSize(3);
    assertThat(store.get(id).orElseThrow().lastSeen().toEpochMilli()).isEqualTo(clock.millis());
    assertThat(store.all()).hasSize(1);
  }

  @Test
  void fresher_numbers_in_the_summary_wait_for_the_periodic_write_while_a_new_severity_does_not() {
    xid.reports(
        List.of(
            condition(
                FindingKind.THERMAL_THROTTLE,
                "gpu-node-007",
                2,
                Severity.WARNING,
                "at 90 C",
                0.7)));
    tick();
    assertThat(store.saved).hasSize(1);

    xid.reports(
        List.of(
            condition(
                FindingKind.THERMAL_THROTTLE,
                "gpu-node-007",
                2,
                Severity.WARNING,
                "at 91 C",
                0.7)));
    tick();
    tick();
    assertThat(store.saved).as("summary-only changes are not written every cycle").hasSize(1);
    assertThat(told).hasSize(1);
    assertThat(engine.findings(FindingQuery.open()))
        .singleElement()
        .satisfies(f -> assertThat(f.summary()).isEqualTo("at 91 C"));

    for (int i = 0; i < 3; i++) {
      tick();
    }
    assertThat(store.saved).as("written back with the periodic refresh").hasSize(2);
    assertThat(store.all())
        .singleElement()
        .satisfies(f -> assertThat(f.summary()).isEqualTo("at 91 C"));

    xid.reports(
        List.of(
            condition(
                FindingKind.THERMAL_THROTTLE,
                "gpu-node-007",
                2,
                Severity.CRITICAL,
                "at 99 C",
                0.5)));
    tick();
    assertThat(store.saved).as("a new severity is written at once").hasSize(3);
  }

  @Test
  void a_finding_resolves_only_after_its_condition_was_absent_for_the_resolve_delay() {
    xid.reports(List.of(xid79(3)));
    tick();
    long lastReported = clock.millis();
    xid.reports(List.of());

    while (clock.millis() - lastReported < 10_000 - TICK) {
      tick();
      assertThat(engine.findings(FindingQuery.open())).hasSize(1);
    }
    tick();

    assertThat(engine.findings(FindingQuery.open())).isEmpty();
    Finding resolved = store.all().get(0);
    assertThat(resolved.state()).isEqualTo(FindingState.RESOLVED);
    assertThat(resolved.resolvedAt().toEpochMilli()).isEqualTo(lastReported + 10_000);
    assertThat(resolved.lastSeen().toEpochMilli()).isEqualTo(lastReported);
    assertThat(told.get(told.size() - 1).state()).isEqualTo(FindingState.RESOLVED);
  }

  @Test
  void a_condition_that_comes_back_before_the_resolve_delay_keeps_the_same_finding() {
    xid.reports(List.of(xid79(3)));
    tick();
    String id = store.all().get(0).id();

    xid.reports(List.of());
    for (int i = 0; i < 4; i++) {
      tick();
    }
    xid.reports(List.of(xid79(3)));
    tick();
    xid.reports(List.of());
    for (int i = 0; i < 4; i++) {
      tick();
    }

    assertThat(engine.findings(FindingQuery.open())).extracting(Finding::id).containsExactly(id);
    assertThat(store.all()).hasSize(1);
    assertThat(told).allSatisfy(f -> assertThat(f.state()).isEqualTo(FindingState.OPEN));

    tick();
    assertThat(store.get(id).orElseThrow().state()).isEqualTo(FindingState.RESOLVED);
  }

  @Test
  void a_detector_that_throws_is_skipped_and_its_findings_are_held_while_the_others_go_on() {
    ScriptedDetector ecc = new ScriptedDetector("ecc-dbe");
    engine.addDetector(ecc);
    xid.reports(List.of(xid79(3)));
    ecc.reports(
        List.of(condition(FindingKind.ECC_DBE, "gpu-node-007", 5, Severity.CRITICAL, "DBE", 1.0)));
    tick();

    xid.fails(new IllegalStateException("bad sample"));
    ecc.reports(List.of());
    for (int i = 0; i < 10; i++) {
      tick();
    }

    assertThat(engine.findings(FindingQuery.open()))
        .extracting(Finding::kind)
        .containsExactly("xid");
    assertThat(ecc.seen).hasSize(11);

    xid.reports(List.of());
    tick();
    assertThat(engine.findings(FindingQuery.open())).isEmpty();
  }

  @Test
  void the_findings_of_a_detector_that_goes_away_resolve_after_the_resolve_delay() {
    xid.reports(List.of(xid79(3), xid79(4)));
    tick();
    engine.removeDetector(xid);
    assertThat(engine.detectors()).isEmpty();

    for (int i = 0; i < 4; i++) {
      tick();
    }
    assertThat(engine.findings(FindingQuery.open())).hasSize(2);
    tick();

    assertThat(engine.findings(FindingQuery.open())).isEmpty();
    assertThat(store.all())
        .hasSize(2)
        .allSatisfy(f -> assertThat(f.state()).isEqualTo(FindingState.RESOLVED));
  }

  @Test
  void a_restart_takes_over_the_open_findings_instead_of_opening_them_again() {
    xid.reports(List.of(xid79(3)));
    tick();
    String id = store.all().get(0).id();

    engine.stop();
    clock.advance(60_000);
    engine = newEngine();
    tick();

    assertThat(store.all()).extracting(Finding::id).containsExactly(id);
    assertThat(engine.findings(FindingQuery.open()))
        .singleElement()
        .satisfies(
            f -> {
              assertThat(f.id()).isEqualTo(id);
              assertThat(f.occurrences()).isEqualTo(2);
              assertThat(f.firstSeen().toEpochMilli()).isEqualTo(START + TICK);
            });
  }

  @Test
  void after_a_restart_restored_findings_wait_for_the_startup_grace_before_they_can_resolve() {
    xid.reports(List.of(xid79(3)));
    tick();
    clock.advance(60_000);
    xid.reports(List.of());
    engine =
        new HealthEngine(
            telemetry, fleet, store, new HealthEngineOptions(TICK, 10_000, 30_000), clock);

    for (int i = 0; i < 14; i++) {
      tick();
    }
    assertThat(engine.findings(FindingQuery.open())).hasSize(1);
    tick();
    assertThat(engine.findings(FindingQuery.open())).isEmpty();
  }

  @Test
  void
      a_change_the_store_refuses_is_kept_and_stored_later_and_listeners_hear_only_of_stored_changes() {
    store.refuseWrites = true;
    xid.reports(List.of(xid79(3)));
    tick();
    assertThat(store.all()).isEmpty();
    assertThat(told).isEmpty();
    assertThat(engine.findings(FindingQuery.open())).hasSize(1);

    store.refuseWrites = false;
    tick();
    assertThat(store.all())
        .singleElement()
        .satisfies(f -> assertThat(f.occurrences()).isEqualTo(2));
    assertThat(told).hasSize(1);
  }

  @Test
  void
      the_engine_judges_the_inventory_with_what_telemetry_reports_that_it_lacks_and_never_writes_it() {
    tick();
    assertThat(fleet.recordCalls()).as("the inventory's owner records nodes").isZero();
    assertThat(xid.seen.get(0).inventory())
        .as("a node telemetry reports before it is recorded is judged from telemetry")
        .singleElement()
        .satisfies(n -> assertThat(n.gpus()).hasSize(8));

    fleet.recordObserved(
        NodeId.of("gpu-node-007"), telemetry.reportedGpus(NodeId.of("gpu-node-007")), now());
    telemetry.report("gpu-node-007", 9, "H100", clock.millis());
    tick();
    assertThat(last().inventory().get(0).gpus()).as("a GPU new to telemetry").hasSize(9);
    assertThat(fleet.nodes().get(0).gpus()).hasSize(8);

    telemetry.report("gpu-node-007", 7, "H100", clock.millis());
    tick();
    assertThat(last().inventory().get(0).gpus())
        .as("a GPU the inventory holds stays judged when telemetry stops reporting it")
        .hasSize(8);
    assertThat(fleet.recordCalls()).isEqualTo(1);
  }

  @Test
  void without_an_inventory_the_engine_goes_on_with_the_last_one_read_and_telemetry() {
    fleet.recordObserved(NodeId.of("gpu-node-001"), List.of(new Gpu(0, "GPU-1", "H100")), now());
    tick();
    assertThat(last().inventory())
        .extracting(n -> n.id().value())
        .containsExactly("gpu-node-001", "gpu-node-007");

    engine.unbindFleet(fleet);
    fleet.remove(NodeId.of("gpu-node-001"));
    tick();
    assertThat(last().inventory())
        .extracting(n -> n.id().value())
        .containsExactly("gpu-node-001", "gpu-node-007");
  }

  private DetectionContext last() {
    return xid.seen.get(xid.seen.size() - 1);
  }

  private Instant now() {
    return Instant.ofEpochMilli(clock.millis());
  }

  @Test
  void the_detection_context_carries_the_evaluation_time_and_the_inventory() {
    tick();
    assertThat(xid.seen)
        .singleElement()
        .satisfies(
            c -> {
              assertThat(c.nowMillis()).isEqualTo(clock.millis());
              assertThat(c.telemetry()).isSameAs(telemetry);
              assertThat(c.inventory())
                  .extracting(n -> n.id().value())
                  .containsExactly("gpu-node-007");
            });
  }

  @Test
  void the_engine_lists_the_detectors_taking_part() {
    engine.addDetector(new ScriptedDetector("straggler"));
    assertThat(engine.detectors()).containsExactly("xid", "straggler");
  }

  @Test
  void the_finding_query_filters_by_kind_and_node_and_sees_fresh_last_seen_times() {
    xid.reports(
        List.of(
            xid79(3),
            condition(
                FindingKind.THERMAL_THROTTLE, "gpu-node-007", 1, Severity.WARNING, "hot", 0.6)));
    tick();
    tick();

    assertThat(engine.findings(FindingQuery.all().withKind(FindingKind.THERMAL_THROTTLE)))
        .singleElement()
        .satisfies(
            f -> {
              assertThat(f.gpu()).isEqualTo(1);
              assertThat(f.lastSeen().toEpochMilli()).isEqualTo(clock.millis());
            });
    assertThat(engine.findings(FindingQuery.all().withNode(NodeId.of("gpu-node-008")))).isEmpty();
    assertThat(engine.findings(FindingQuery.all().withLimit(1))).hasSize(1);
  }
}
