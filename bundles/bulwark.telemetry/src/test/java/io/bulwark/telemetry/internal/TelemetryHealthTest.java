package io.bulwark.telemetry.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.bulwark.api.system.SubsystemState;
import io.bulwark.api.system.SubsystemStatus;
import io.bulwark.api.telemetry.ScrapeTarget;
import io.bulwark.api.telemetry.TargetStatus;
import io.bulwark.api.telemetry.TargetStatus.Health;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Telemetry never says UP when it cannot see, and says what to do when it does not. */
class TelemetryHealthTest {
  private static final Instant NOW = Instant.parse("2026-12-01T12:00:00Z");
  private final TelemetryHealth health =
      new TelemetryHealth(
          new TelemetryOptions(Path.of("/etc/bulwark/targets.json"), 1000, 800, 600),
          Clock.fixed(NOW, ZoneOffset.UTC));
  private final SeriesBudget budget = new SeriesBudget(1000);

  /** Load shedding at rest: every target at the configured interval. */
  private static final ScrapePacer.Report STEADY = pacer(0.0).report();

  @Test
  void noTargetMeansNothingIsWatched() {
    SubsystemStatus s = health.status(List.of(), "", budget, 0, 0, STEADY);
    assertThat(s.state()).isEqualTo(SubsystemState.DEGRADED);
    assertThat(s.summary()).contains("no GPU is watched");
    assertThat(s.action()).contains("/etc/bulwark/targets.json");

    SubsystemStatus broken = health.status(List.of(), "not a JSON array", budget, 0, 0, STEADY);
    assertThat(broken.state()).isEqualTo(SubsystemState.DOWN);
    assertThat(broken.summary()).contains("not a JSON array");
  }

  @Test
  void aFewTargetsDownAreTheNodesProblemHalfOrMoreAreTelemetrysAndAllAreDown() {
    assertThat(health.status(targets(4, 1, 0), "", budget, 4, 0, STEADY).state())
        .isEqualTo(SubsystemState.UP);
    assertThat(health.status(targets(4, 1, 0), "", budget, 4, 0, STEADY).summary())
        .startsWith("3 of 4 target(s) scraped");
    SubsystemStatus half = health.status(targets(4, 2, 0), "", budget, 4, 0, STEADY);
    assertThat(half.state()).isEqualTo(SubsystemState.DEGRADED);
    assertThat(half.summary()).contains("2 of 4 target(s) down");
    SubsystemStatus all = health.status(targets(3, 3, 0), "", budget, 3, 0, STEADY);
    assertThat(all.state()).isEqualTo(SubsystemState.DOWN);
    assertThat(all.summary()).contains("none of the 3 target(s) answers").contains("refused");
  }

  @Test
  void samplesDroppedForALimitOrASpentBudgetDegradeTelemetry() {
    SubsystemStatus limited = health.status(targets(4, 0, 1), "", budget, 4, 17, STEADY);
    assertThat(limited.state()).isEqualTo(SubsystemState.DEGRADED);
    assertThat(limited.summary()).contains("1 over their limits").contains("maxNodesPerTarget");
    assertThat(limited.measurements()).containsEntry("bulwark_telemetry_samples_dropped", 17.0);

    for (int i = 0; i < 1000; i++) {
      budget.reserve();
    }
    SubsystemStatus spent = health.status(targets(4, 0, 0), "", budget, 4, 0, STEADY);
    assertThat(spent.state()).isEqualTo(SubsystemState.DEGRADED);
    assertThat(spent.summary()).contains("all this heap allows");
    assertThat(spent.action()).contains("-Xmx");
  }

  @Test
  void scrapingThatStoppedIsDown() {
    List<TargetStatus> stale = new ArrayList<>();
    for (TargetStatus t : targets(2, 0, 0)) {
      stale.add(
          new TargetStatus(
              t.target(), t.health(), t.node(), NOW.minusSeconds(45), 1000, 10, t.lastError()));
    }
    SubsystemStatus s = health.status(stale, "", budget, 2, 0, STEADY);
    assertThat(s.state()).isEqualTo(SubsystemState.DOWN);
    assertThat(s.summary()).contains("scraping has stopped").contains("45 s");
  }

  @Test
  void sheddingLoadDegradesTelemetrySayingWhyAndWhatToDo() {
    ScrapePacer pacer = pacer(0.99, NOW.minusSeconds(40));
    overload(pacer);

    SubsystemStatus s = health.status(targets(4, 0, 0), "", budget, 4, 0, pacer.report());

    assertThat(s.state()).isEqualTo(SubsystemState.DEGRADED);
    assertThat(s.summary())
        .contains("shedding load: every target is scraped every 2.0 s instead of 1.0 s")
        .contains("7 of 100 scrapes missed (7.0%)")
        .contains("CPUs 99% busy");
    assertThat(s.action()).contains("returns to the scrape interval by itself");
    assertThat(s.measurements())
        .containsEntry("bulwark_telemetry_load_shedding", 1.0)
        .containsEntry("bulwark_telemetry_scrape_interval_seconds", 1.953)
        .containsEntry("bulwark_telemetry_scrape_interval_configured_seconds", 1.0)
        .containsEntry("bulwark_telemetry_scrapes_missed_ratio", 0.07)
        .containsEntry("bulwark_telemetry_cpu_busy_ratio", 0.99)
        .containsEntry("bulwark_telemetry_overloaded_rounds_total", 3.0);

    SubsystemStatus steady = health.status(targets(4, 0, 0), "", budget, 4, 0, STEADY);
    assertThat(steady.state()).isEqualTo(SubsystemState.UP);
    assertThat(steady.measurements())
        .containsEntry("bulwark_telemetry_load_shedding", 0.0)
        .containsEntry("bulwark_telemetry_scrape_interval_seconds", 1.0);
  }

  @Test
  void aFewSecondsOfSheddingAreSaidButNotAlerted() {
    ScrapePacer pacer = pacer(0.99, NOW.minusSeconds(5));
    overload(pacer);

    SubsystemStatus s = health.status(targets(4, 0, 0), "", budget, 4, 0, pacer.report());

    assertThat(s.state()).isEqualTo(SubsystemState.UP);
    assertThat(s.summary())
        .startsWith("4 of 4 target(s) scraped")
        .contains("; and shedding load: every target is scraped every 2.0 s instead of 1.0 s");
    assertThat(s.action()).contains("returns to the scrape interval by itself");
    assertThat(s.measurements()).containsEntry("bulwark_telemetry_load_shedding", 1.0);
  }

  @Test
  void sheddingIsSaidAlongsideAnotherReasonThatLeads() {
    ScrapePacer pacer = pacer(0.99);
    overload(pacer);
    SeriesBudget full = new SeriesBudget(10);
    for (int i = 0; i < 10; i++) {
      full.reserve();
    }

    SubsystemStatus s = health.status(targets(4, 0, 0), "", full, 4, 0, pacer.report());

    assertThat(s.state()).isEqualTo(SubsystemState.DEGRADED);
    assertThat(s.summary())
        .startsWith("telemetry holds 10 series, all this heap allows")
        .contains("; and shedding load: every target is scraped every 2.0 s instead of 1.0 s");
    assertThat(s.action())
        .contains("raise the heap")
        .contains("returns to the scrape interval by itself");
  }

  private static ScrapePacer pacer(double cpu) {
    return pacer(cpu, NOW);
  }

  /** A pacer whose rounds end at {@code roundsAt}. */
  private static ScrapePacer pacer(double cpu, Instant roundsAt) {
    return new ScrapePacer(1000, 800, 4000, () -> cpu, roundsAt::toEpochMilli);
  }

  /** Three overloaded rounds: 7 of 100 scrapes missed each with the CPUs saturated. */
  private static void overload(ScrapePacer pacer) {
    for (int round = 0; round < 3; round++) {
      for (int i = 0; i < 100; i++) {
        pacer.started();
      }
      for (int i = 0; i < 7; i++) {
        pacer.missed();
      }
      pacer.endRound();
    }
  }

  /** Returns {@code n} targets scraped now, the first {@code down} down, the next limited. */
  private static List<TargetStatus> targets(int n, int down, int limited) {
    List<TargetStatus> all = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      ScrapeTarget t = new ScrapeTarget("10.0.0." + i + ":9400", "http", "/metrics", Map.of());
      boolean isDown = i < down;
      boolean isLimited = !isDown && i < down + limited;
      all.add(
          new TargetStatus(
              t,
              isDown ? Health.DOWN : Health.UP,
              "gpu-" + i,
              NOW,
              1000,
              isDown ? 0 : 100,
              isDown
                  ? "connection refused"
                  : isLimited ? "dropped 17 sample(s): ... (maxNodesPerTarget ...)" : ""));
    }
    return all;
  }
}
