package io.bulwark.health.scenarios;

import io.bulwark.api.health.Detector;
import io.bulwark.api.health.Finding;
import io.bulwark.api.health.FindingListener;
import io.bulwark.api.scheduler.JobPlacement;
import io.bulwark.api.telemetry.ScrapeTarget;
import io.bulwark.health.internal.VirtualHealthEngine;
import io.bulwark.inventory.internal.VirtualInventory;
import io.bulwark.telemetry.internal.VirtualScrapes;
import io.bulwark.testing.InMemoryFleet;
import io.vertx.core.Vertx;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Replays one scenario through the real path: its exporters' pages are served over HTTP on
 * loopback, the telemetry scraper fetches, parses and files them, and the health engine evaluates
 * the detectors and tracks findings, all on a virtual clock that advances one sampling interval per
 * step (scrape, then evaluate), so no step waits for wall-clock time. A scenario that declares jobs
 * has a job map ({@link ScenarioJobMap}), bound to the detectors that take one as Service Component
 * Runtime would bind it; without jobs there is no job map at all. Records every finding opened.
 *
 * <p>A {@link Run} sets the scrape interval and the generation of names the exporters write: the
 * virtual clock advances in half-second ticks, the exporters show the scenario's second the clock
 * is in, targets are scraped every scrape interval (1 s, 2.5 s, 4 s...) and the engine evaluates
 * every second, as on an appliance whose telemetry is behind a busy machine while its engine is
 * not. A scenario's verdicts must not depend on the run.
 */
final class ScenarioReplay {
  /** The engine's evaluation interval, and the scrape interval of the standard run. */
  static final long INTERVAL_MILLIS = 1000;

  private static final long TICK_MILLIS = 500;

  /** How one replay scrapes: the scrape interval and the naming of the exporters' pages. */
  record Run(long scrapeMillis, ScenarioFleet.Naming naming) {
    static final Run STANDARD = new Run(INTERVAL_MILLIS, ScenarioFleet.Naming.DCGM3);

    Run {
      if (scrapeMillis < TICK_MILLIS || scrapeMillis % TICK_MILLIS != 0) {
        throw new IllegalArgumentException("scrape interval in half seconds: " + scrapeMillis);
      }
    }

    @Override
    public String toString() {
      return (scrapeMillis % 1000 == 0
              ? String.valueOf(scrapeMillis / 1000)
              : String.valueOf(scrapeMillis / 1000.0))
          + " s scrapes, "
          + (naming == ScenarioFleet.Naming.DCGM3 ? "DCGM 3.x names" : "DCGM 4.x names");
    }
  }

  private static final long SCRAPE_TIMEOUT_MILLIS = 500;
  private static final int RETENTION_SAMPLES = 600;

  private final Vertx vertx;
  private final Supplier<List<Detector>> detectors;
  private final Run run;

  /**
   * @param detectors makes a fresh set of detectors for each replay (detectors may keep state)
   */
  ScenarioReplay(Vertx vertx, Supplier<List<Detector>> detectors) {
    this(vertx, detectors, Run.STANDARD);
  }

  ScenarioReplay(Vertx vertx, Supplier<List<Detector>> detectors, Run run) {
    this.vertx = vertx;
    this.detectors = detectors;
    this.run = run;
  }

  /** What one replay gave. */
  record Result(Scenario scenario, List<ObservedFinding> findings, long wallMillis) {}

  Run run() {
    return run;
  }

  Result replay(Scenario scenario) {
    long started = System.nanoTime();
    VirtualTime time = new VirtualTime(HealthyGpu.START_MILLIS);
    ScenarioFleet fleet = new ScenarioFleet(scenario, run.naming());
    List<ObservedFinding> observed = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    FindingListener listener =
        finding -> {
          if (seen.add(finding.id())) {
            observed.add(observe(scenario, finding));
          }
        };
    try (ExporterServer server = new ExporterServer(vertx, fleet)) {
      List<ScrapeTarget> targets = new ArrayList<>();
      for (int n = 0; n < scenario.nodes(); n++) {
        targets.add(
            new ScrapeTarget(
                "127.0.0.1:" + server.port(),
                "http",
                "/node/" + n + "/metrics",
                Map.of("node", scenario.nodeName(n))));
      }
      try (VirtualScrapes scrapes =
          new VirtualScrapes(
              vertx,
              targets,
              time::millis,
              run.scrapeMillis(),
              SCRAPE_TIMEOUT_MILLIS,
              RETENTION_SAMPLES)) {
        List<Detector> roster = detectors.get();
        ScenarioJobMap jobMap = scenario.jobs().isEmpty() ? null : new ScenarioJobMap(scenario);
        if (jobMap != null && !bindJobMap(roster, jobMap)) {
          throw new IllegalStateException(
              scenario.name() + " declares jobs, but no detector takes a job map");
        }
        InMemoryFleet inventoryFleet = new InMemoryFleet();
        VirtualInventory inventory =
            new VirtualInventory(scrapes.telemetry(), inventoryFleet, time);
        VirtualHealthEngine engine =
            new VirtualHealthEngine(
                scrapes.telemetry(),
                inventoryFleet,
                new FindingsInMemory(),
                time,
                INTERVAL_MILLIS,
                roster,
                listener);
        long end = scenario.durationSeconds() * 1000L;
        for (long elapsed = 0; elapsed < end; elapsed += TICK_MILLIS) {
          long now = HealthyGpu.START_MILLIS + elapsed;
          int t = (int) (elapsed / 1000);
          time.set(now);
          server.showSecond(t);
          if (elapsed % run.scrapeMillis() == 0) {
            scrapes.scrapeRound();
          }
          if (elapsed % INTERVAL_MILLIS == 0) {
            inventory.round();
            if (jobMap != null) {
              jobMap.round(t, now);
            }
            engine.evaluate();
          }
        }
      }
    }
    return new Result(scenario, List.copyOf(observed), (System.nanoTime() - started) / 1_000_000);
  }

  private static boolean bindJobMap(List<Detector> roster, JobPlacement jobMap) {
    boolean any = false;
    for (Detector d : roster) {
      any |= ReferenceBinding.bind(d, JobPlacement.class, jobMap);
    }
    return any;
  }

  private static ObservedFinding observe(Scenario scenario, Finding f) {
    int node = -1;
    for (int n = 0; n < scenario.nodes(); n++) {
      if (scenario.nodeName(n).equals(f.node().value())) {
        node = n;
      }
    }
    int second = (int) ((f.firstSeen().toEpochMilli() - HealthyGpu.START_MILLIS) / INTERVAL_MILLIS);
    return new ObservedFinding(f.kind(), node, f.gpu(), second, f.summary());
  }

  /** The replay's clock: stands still between steps. */
  private static final class VirtualTime extends Clock {
    private volatile long millis;

    VirtualTime(long millis) {
      this.millis = millis;
    }

    void set(long now) {
      millis = now;
    }

    @Override
    public long millis() {
      return millis;
    }

    @Override
    public Instant instant() {
      return Instant.ofEpochMilli(millis);
    }

    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      return this;
    }
  }
}
