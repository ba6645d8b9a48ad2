package io.bulwark.health.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bulwark.testing.InMemoryFleet;
import io.bulwark.testing.InMemoryTelemetry;
import io.bulwark.testing.TypedConfig;
import java.time.Clock;
import java.util.Map;
import org.junit.jupiter.api.Test;

class HealthEngineActivationTest {
  private final InMemoryTelemetry telemetry = new InMemoryTelemetry();
  private final InMemoryFleet fleet = new InMemoryFleet();
  private final InMemoryFindings store = new InMemoryFindings();

  private HealthEngine activate(Map<String, Object> properties) {
    HealthEngine engine =
        new HealthEngine(
            telemetry,
            store,
            new MemoryLedger(),
            TypedConfig.of(HealthEngineConfig.class, properties));
    engine.bindFleet(fleet);
    return engine;
  }

  @Test
  void the_defaults_are_two_second_evaluations_and_ten_seconds_to_resolve() {
    HealthEngineOptions options =
        HealthEngineOptions.from(TypedConfig.of(HealthEngineConfig.class, Map.of()));
    assertThat(options).isEqualTo(new HealthEngineOptions(2000, 10_000, 30_000));
    assertThat(options.telemetryStaleMillis()).isEqualTo(10_000);
    assertThat(new HealthEngineOptions(5000, 0, 0).telemetryStaleMillis()).isEqualTo(15_000);
    assertThat(activate(Map.of()).detectors()).isEmpty();
  }

  @Test
  void an_invalid_value_fails_activation_and_names_the_property() {
    assertThatThrownBy(() -> activate(Map.of("evaluationIntervalMillis", 0L)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("evaluationIntervalMillis");
    assertThatThrownBy(() -> activate(Map.of("resolveAfterMillis", -1L)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("resolveAfterMillis");
    assertThatThrownBy(() -> activate(Map.of("startupGraceMillis", -5L)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("startupGraceMillis");
  }

  @Test
  void activation_fails_with_a_clear_message_when_the_open_findings_cannot_be_read() {
    store.refuseReads = true;
    assertThatThrownBy(
            () ->
                new HealthEngine(
                    telemetry,
                    store,
                    new MemoryLedger(),
                    TypedConfig.of(HealthEngineConfig.class, Map.of())))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("open findings");
  }

  @Test
  void once_started_the_engine_evaluates_on_its_own_thread_until_stopped()
      throws InterruptedException {
    HealthEngine engine =
        new HealthEngine(
            telemetry, fleet, store, new HealthEngineOptions(100, 10_000, 0), Clock.systemUTC());
    ScriptedDetector detector = new ScriptedDetector("counting");
    engine.addDetector(detector);
    engine.start();
    try {
      for (int i = 0; i < 50 && detector.seen.size() < 3; i++) {
        Thread.sleep(100);
      }
    } finally {
      engine.stop();
    }
    int afterStop = detector.seen.size();
    assertThat(afterStop).isGreaterThanOrEqualTo(3);
    Thread.sleep(300);
    assertThat(detector.seen).hasSize(afterStop);
  }

  @Test
  void evaluations_start_every_interval_whatever_they_take_and_pause_after_an_overrun() {
    assertThat(HealthEngine.nextDelayMillis(2000, 0, 700)).isEqualTo(1300);
    assertThat(HealthEngine.nextDelayMillis(2000, 1000, 0)).isEqualTo(2000);
    assertThat(HealthEngine.nextDelayMillis(2000, 2000, 2600)).as("an overrun").isEqualTo(500);
  }

  @Test
  void while_telemetry_sheds_load_the_engine_evaluates_at_its_pace_and_says_so()
      throws InterruptedException {
    HealthEngine engine =
        new HealthEngine(
            telemetry, fleet, store, new HealthEngineOptions(100, 10_000, 0), Clock.systemUTC());
    ScriptedDetector detector = new ScriptedDetector("counting");
    engine.addDetector(detector);
    telemetry.sampleInterval(500);
    engine.start();
    try {
      Thread.sleep(2_300);
    } finally {
      engine.stop();
    }
    assertThat(detector.seen.size()).as("every 500 ms, not every 100").isBetween(3, 5);
    assertThat(engine.status().summary())
        .contains(
            "evaluating every 500 ms (at telemetry's pace: it sheds load; 100 ms configured)");
    assertThat(engine.status().measurements())
        .containsEntry("bulwark_engine_evaluation_interval_seconds", 0.5)
        .containsEntry(
            "bulwark_engine_detector_judgements_counting", (double) detector.seen.size());
  }
}
