package io.bulwark.telemetry.internal;

import io.bulwark.api.telemetry.ScrapeTarget;
import io.bulwark.api.telemetry.TargetStatus;
import io.bulwark.api.telemetry.TelemetryQuery;
import io.vertx.core.Vertx;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.LongSupplier;

/**
 * The real telemetry scrape path (the {@link ScrapeLoop} with its HTTP client, parser, filer and
 * {@link SeriesStore}) driven one scrape round at a time on a virtual clock, for the scenario
 * replays: no timer runs, so a replay never waits for wall-clock time. Not thread-safe; one replay
 * uses one instance.
 */
public final class VirtualScrapes implements AutoCloseable {
  private static final long ROUND_TIMEOUT_SECONDS = 30;

  /**
   * The real-time limit of one scrape. The replay's clock stands still while a round runs, so the
   * scenario's own timeout says nothing about wall-clock time; a busy build machine must not turn a
   * slow loopback fetch into a failed scrape.
   */
  private static final long WALL_CLOCK_SCRAPE_TIMEOUT_MILLIS = 10_000;

  private final SeriesStore store;
  private final ScrapeLoop loop;

  /**
   * Creates the scrape path for {@code targets}, stamping samples with {@code clock}.
   *
   * @param intervalMillis the scrape interval the replay steps by
   * @param timeoutMillis the scrape timeout, shorter than the interval
   * @param retentionSamples samples kept per series
   */
  public VirtualScrapes(
      Vertx vertx,
      List<ScrapeTarget> targets,
      LongSupplier clock,
      long intervalMillis,
      long timeoutMillis,
      int retentionSamples) {
    long timeout = Math.max(timeoutMillis, WALL_CLOCK_SCRAPE_TIMEOUT_MILLIS);
    TelemetryOptions options =
        new TelemetryOptions(
            Path.of("scenario-targets.json"),
            Math.max(intervalMillis, timeout + 1),
            timeout,
            retentionSamples);
    this.store = new SeriesStore(retentionSamples);
    this.loop = new ScrapeLoop(vertx, store, options, clock);
    loop.setTargets(targets);
  }

  /** Returns what the detectors read: the samples scraped so far. */
  public TelemetryQuery telemetry() {
    return store;
  }

  /**
   * Scrapes every target once, at the clock's present time, and waits until all are done.
   *
   * @throws IllegalStateException if the round does not finish within 30 s of real time
   */
  public List<TargetStatus> scrapeRound() {
    List<TargetStatus> statuses = round();
    if (statuses.stream().anyMatch(s -> s.health() == TargetStatus.Health.DOWN)) {
      // Once more, at the same virtual time: a loopback fetch on a busy build machine can time
      // out. A target the scenario takes down stays down; the samples of the others are already
      // filed.
      statuses = round();
    }
    return statuses;
  }

  private List<TargetStatus> round() {
    try {
      return loop.scrapeAll()
          .toCompletionStage()
          .toCompletableFuture()
          .get(ROUND_TIMEOUT_SECONDS, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("scrape round interrupted", e);
    } catch (ExecutionException | TimeoutException e) {
      throw new IllegalStateException("scrape round did not finish", e);
    }
  }

  @Override
  public void close() {
    loop.close();
  }
}
