package io.bulwark.bench.ingest;

import io.bulwark.api.health.CapacityReport;
import io.bulwark.api.health.HealthService;
import io.bulwark.api.telemetry.TargetStatus;
import io.bulwark.api.telemetry.TelemetryQuery;
import io.bulwark.api.telemetry.TelemetryTargets;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Counts what Bulwark has done, from the outside: every quarter second it reads the status of every
 * scrape target and the health engine's capacity report, and adds each scrape finished since the
 * last look (its samples, or a failure) and each evaluation. A target is scraped at most once a
 * second and never twice at once, so no scrape is missed. Thread-safe; {@link #snapshot} may be
 * called from any thread.
 */
final class IngestTally implements AutoCloseable {
  private static final long LOOK_MILLIS = 250;

  private final TelemetryTargets telemetry;
  private final TelemetryQuery query;
  private final HealthService health;
  private final ScheduledExecutorService looker;
  private final Map<String, Instant> lastSeen = new HashMap<>();
  private final Map<String, Integer> lastSamples = new HashMap<>();
  private Instant lastEvaluation;
  private long scrapes;
  private long samples;
  private long failures;
  private long evaluations;
  private int targets;
  private int up;
  private long series;

  /**
   * What has been counted so far, at {@code atMillis}; {@code series} is the samples of the latest
   * successful scrape of every target, summed: the series kept, and the samples of one full round.
   */
  record Snapshot(
      long atMillis,
      long scrapes,
      long samples,
      long failures,
      long evaluations,
      int targets,
      int up,
      long series,
      CapacityReport capacity,
      long intervalMillis) {}

  IngestTally(TelemetryTargets telemetry, TelemetryQuery query, HealthService health) {
    this.telemetry = telemetry;
    this.query = query;
    this.health = health;
    this.looker =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "bench-ingest-tally");
              t.setDaemon(true);
              return t;
            });
    looker.scheduleAtFixedRate(this::lookSafely, LOOK_MILLIS, LOOK_MILLIS, TimeUnit.MILLISECONDS);
  }

  synchronized Snapshot snapshot() {
    return new Snapshot(
        System.currentTimeMillis(),
        scrapes,
        samples,
        failures,
        evaluations,
        targets,
        up,
        series,
        health.capacity(),
        query.sampleIntervalMillis());
  }

  @Override
  public void close() {
    looker.shutdownNow();
  }

  private void lookSafely() {
    try {
      look();
    } catch (RuntimeException e) {
      System.err.println("bulwark: counting scrapes failed this time: " + e);
    }
  }

  private synchronized void look() {
    List<TargetStatus> statuses = telemetry.targets();
    int upNow = 0;
    for (TargetStatus status : statuses) {
      if (status.lastScrape() == null) {
        continue;
      }
      Instant previous = lastSeen.put(status.target().url(), status.lastScrape());
      if (!status.lastScrape().equals(previous)) {
        scrapes++;
        if (status.health() == TargetStatus.Health.UP) {
          samples += status.samples();
        } else {
          failures++;
        }
      }
      if (status.health() == TargetStatus.Health.UP) {
        upNow++;
        Integer before = lastSamples.put(status.target().url(), status.samples());
        series += status.samples() - (before == null ? 0 : before);
      }
    }
    targets = statuses.size();
    up = upNow;
    Instant evaluated = health.capacity().at();
    if (lastEvaluation != null && !evaluated.equals(lastEvaluation)) {
      evaluations++;
    }
    lastEvaluation = evaluated;
  }
}
