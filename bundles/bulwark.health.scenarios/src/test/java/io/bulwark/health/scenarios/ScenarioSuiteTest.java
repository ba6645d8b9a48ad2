package io.bulwark.health.scenarios;

import static org.assertj.core.api.Assertions.assertThat;

import io.bulwark.api.health.Detector;
import io.bulwark.api.health.FindingKind;
import io.bulwark.testing.DetectorDiscovery;
import io.vertx.core.Vertx;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The labelled fault suite against its targets. Given every scenario in {@code scenarios/}, when
 * each is replayed through the real scraper, health engine and detectors, then the findings score
 * at least 0.98 precision and recall overall, hard failures are found within two sampling
 * intervals, a sustained 10% straggler (a GPU or a whole node of a job) within 15 s, and healthy,
 * benign and blind-spot scenarios raise nothing. The table goes to standard output and {@code
 * target/scenario-report.txt}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ScenarioSuiteTest {
  private static final Set<String> HARD_KINDS =
      Set.of(
          FindingKind.XID,
          FindingKind.ECC_DBE,
          FindingKind.ROW_REMAP_FAILURE,
          FindingKind.GPU_MISSING);

  private static final int REPLAY_THREADS = 2;

  private Vertx vertx;
  private SuiteReport report;

  @BeforeAll
  void replayEveryScenario() throws Exception {
    vertx = Vertx.vertx();
    DetectorDiscovery.Found found = DetectorDiscovery.onClassPath();
    ScenarioReplay replay =
        new ScenarioReplay(vertx, () -> DetectorDiscovery.onClassPath().detectors());
    List<ScenarioScore> scores = new ArrayList<>();
    ExecutorService pool = Executors.newFixedThreadPool(REPLAY_THREADS);
    try {
      List<Future<ScenarioScore>> running = new ArrayList<>();
      for (Scenario s : ScenarioFiles.all()) {
        running.add(pool.submit(() -> ScenarioScore.of(replay.replay(s))));
      }
      for (Future<ScenarioScore> f : running) {
        scores.add(f.get(120, TimeUnit.SECONDS));
      }
    } finally {
      pool.shutdownNow();
    }
    report =
        new SuiteReport(
            scores, found.detectors().stream().map(Detector::name).toList(), found.skipped());
    String text = report.render();
    System.out.println(text);
    Path out = Path.of(System.getProperty("basedir", "."), "target", "scenario-report.txt");
    Files.createDirectories(out.getParent());
    Files.writeString(out, text, StandardCharsets.UTF_8);
  }

  @AfterAll
  void closeVertx() {
    vertx.close().toCompletionStage().toCompletableFuture().join();
  }

  @Test
  void suiteLabelsEveryBuiltInKindInAtLeastFortyScenarios() {
    Set<String> labelled =
        report.scores().stream()
            .flatMap(s -> s.scenario().expected().stream())
            .map(ExpectedFinding::kind)
            .collect(Collectors.toSet());
    assertThat(labelled).containsAll(FindingKind.BUILT_IN);
    assertThat(report.scores()).hasSizeGreaterThanOrEqualTo(40);
  }

  @Test
  void overallPrecisionAndRecallReachNinetyEightPercent() {
    SuiteReport.KindScore overall = report.overall();
    assertThat(overall.precision()).as("overall precision").isGreaterThanOrEqualTo(0.98);
    assertThat(overall.recall()).as("overall recall").isGreaterThanOrEqualTo(0.98);
  }

  @Test
  void hardFailuresAreFoundWithinTwoSamplingIntervals() {
    long limit = 2 * ScenarioReplay.INTERVAL_MILLIS / 1000;
    List<String> late = new ArrayList<>();
    for (ScenarioScore s : report.scores()) {
      for (ExpectedFinding e : s.scenario().expected()) {
        if (!e.critical() || !HARD_KINDS.contains(e.kind())) {
          continue;
        }
        var match = s.matches().stream().filter(m -> m.label().equals(e)).findFirst();
        if (match.isEmpty() || match.get().latencySeconds() > limit) {
          late.add(
              s.scenario().name()
                  + " "
                  + e.kind()
                  + (match.isEmpty()
                      ? " missed"
                      : " after " + match.get().latencySeconds() + " s"));
        }
      }
    }
    assertThat(late).as("hard failures found late or not at all").isEmpty();
  }

  @Test
  void sustainedTenPercentStragglerIsFoundWithinSixtySeconds() {
    List<ScenarioScore> stragglers =
        report.scores().stream()
            .filter(s -> s.scenario().name().startsWith("straggler-10pct"))
            .toList();
    assertThat(stragglers).isNotEmpty();
    for (ScenarioScore s : stragglers) {
      assertThat(s.falseNegatives()).as(s.scenario().name() + " missed").isEmpty();
      assertThat(s.matches())
          .as(s.scenario().name())
          .allSatisfy(m -> assertThat(m.latencySeconds()).isLessThanOrEqualTo(15));
    }
  }

  @Test
  void healthyAndBenignScenariosRaiseNoFinding() {
    List<String> alarms = new ArrayList<>();
    for (ScenarioScore s : report.scores()) {
      if (!s.scenario().category().equals("fault")) {
        s.falsePositives()
            .forEach(f -> alarms.add(s.scenario().name() + ": " + f.kind() + " " + f.summary()));
      }
    }
    assertThat(alarms).isEmpty();
  }

  @Test
  void replaysRunOnVirtualTimeMuchFasterThanRealTime() {
    for (ScenarioScore s : report.scores()) {
      assertThat(s.wallMillis())
          .as(s.scenario().name() + " replay time (ms)")
          .isLessThan(s.scenario().durationSeconds() * 1000L / 10);
    }
  }
}
