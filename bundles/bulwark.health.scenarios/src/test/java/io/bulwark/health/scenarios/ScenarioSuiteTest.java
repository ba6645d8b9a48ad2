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
 * benign and blind-spot scenarios raise nothing.
 *
 * <p>Every scenario is replayed again with targets scraped every 2.5 s (a busy-looping process
 * beside the replay, as on a loaded machine), and every 4 s with the exporters writing DCGM 4.x
 * names (the other runs write DCGM 3.x names): every scenario's verdicts must be those of the
 * standard run (no label missed, no false alarm), a hard failure found at most one scrape interval
 * (and one evaluation) later; the latency of the kinds judged over a window is reported per run.
 * The tables go to standard output and {@code target/scenario-report.txt}.
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

  /** The runs beside the standard one; the busy loop runs beside the first slower one. */
  private static final List<ScenarioReplay.Run> OTHER_RUNS =
      List.of(
          new ScenarioReplay.Run(2500, ScenarioFleet.Naming.DCGM3),
          new ScenarioReplay.Run(4000, ScenarioFleet.Naming.DCGM4));

  private static final long BUSY_LOOP_SCRAPE_MILLIS = 2500;

  private Vertx vertx;
  private SuiteReport report;
  private final List<SuiteReport> others = new ArrayList<>();

  @BeforeAll
  void replayEveryScenario() throws Exception {
    vertx = Vertx.vertx();
    DetectorDiscovery.Found found = DetectorDiscovery.onClassPath();
    List<String> names = found.detectors().stream().map(Detector::name).toList();
    report = new SuiteReport(replayAll(ScenarioReplay.Run.STANDARD), names, found.skipped());
    StringBuilder text = new StringBuilder(report.render());
    for (ScenarioReplay.Run run : OTHER_RUNS) {
      Process busy = null;
      if (run.scrapeMillis() == BUSY_LOOP_SCRAPE_MILLIS) {
        // A process that keeps one core busy beside the replay, as a loaded machine would.
        busy = new ProcessBuilder("sh", "-c", "while :; do :; done").start();
      }
      try {
        SuiteReport r = new SuiteReport(replayAll(run), names, found.skipped(), run);
        others.add(r);
        text.append("\n")
            .append(busy != null ? "With a busy-looping process beside the replay.\n" : "")
            .append(r.render());
      } finally {
        if (busy != null) {
          busy.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
      }
    }
    System.out.println(text);
    Path out = Path.of(System.getProperty("basedir", "."), "target", "scenario-report.txt");
    Files.createDirectories(out.getParent());
    Files.writeString(out, text, StandardCharsets.UTF_8);
  }

  private List<ScenarioScore> replayAll(ScenarioReplay.Run run) throws Exception {
    ScenarioReplay replay =
        new ScenarioReplay(vertx, () -> DetectorDiscovery.onClassPath().detectors(), run);
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
    return scores;
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

  @Test
  void everyRunGivesEveryScenarioTheVerdictsOfTheStandardRun() {
    List<String> differences = new ArrayList<>();
    for (SuiteReport other : others) {
      ScenarioReplay.Run run = other.run();
      for (ScenarioScore s : other.scores()) {
        ScenarioScore standard = standard(s.scenario().name());
        if (!s.falseNegatives().isEmpty()) {
          differences.add(run + ": " + s.scenario().name() + " missed " + s.falseNegatives());
        }
        s.falsePositives()
            .forEach(
                f ->
                    differences.add(
                        run + ": " + s.scenario().name() + " false alarm " + f.kind() + " " + f));
        long allowance = (run.scrapeMillis() + ScenarioReplay.INTERVAL_MILLIS + 999) / 1000;
        for (ScenarioScore.Match m : s.matches()) {
          if (!HARD_KINDS.contains(m.label().kind())) {
            continue;
          }
          var before =
              standard.matches().stream().filter(b -> b.label().equals(m.label())).findFirst();
          if (before.isPresent()
              && m.latencySeconds() > before.get().latencySeconds() + allowance) {
            differences.add(
                run
                    + ": "
                    + s.scenario().name()
                    + " "
                    + m.label().kind()
                    + " after "
                    + m.latencySeconds()
                    + " s, not within "
                    + allowance
                    + " s of the standard run's "
                    + before.get().latencySeconds()
                    + " s");
          }
        }
      }
    }
    assertThat(differences).isEmpty();
  }

  @Test
  void theDcgm4NamingRunFindsEveryFaultKind() {
    SuiteReport dcgm4 =
        others.stream()
            .filter(r -> r.run().naming() == ScenarioFleet.Naming.DCGM4)
            .findFirst()
            .orElseThrow();
    Set<String> found =
        dcgm4.scores().stream()
            .flatMap(s -> s.matches().stream())
            .map(m -> m.label().kind())
            .collect(Collectors.toSet());
    assertThat(found).containsAll(FindingKind.BUILT_IN);
  }

  private ScenarioScore standard(String name) {
    return report.scores().stream()
        .filter(s -> s.scenario().name().equals(name))
        .findFirst()
        .orElseThrow();
  }
}
