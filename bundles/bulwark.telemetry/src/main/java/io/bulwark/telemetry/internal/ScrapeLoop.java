package io.bulwark.telemetry.internal;

import io.bulwark.api.fleet.NodeId;
import io.bulwark.api.telemetry.ScrapeTarget;
import io.bulwark.api.telemetry.TargetStatus;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.WorkerExecutor;
import io.vertx.core.http.HttpClientAgent;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.PoolOptions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Scrapes every known target once per interval with one shared, non-blocking HTTP client, and
 * parses the pages on a small pool of parsing workers so that the event loops only move bytes.
 * Targets come and go with {@link #setTargets}; a target that stays keeps its parser and status.
 * Thread-safe.
 */
final class ScrapeLoop implements AutoCloseable {
  private static final String PARSER_POOL = "bulwark-telemetry-parse";

  private final Vertx vertx;
  private final SeriesStore store;
  private final TelemetryOptions options;
  private final TargetLimits limits;
  private final LongSupplier clock;
  private final HttpClientAgent client;
  private final WorkerExecutor parsers;
  private final PageBuffers buffers = new PageBuffers(PAGE_BUFFERS);
  private final ScrapeLog scrapeLog;
  private final ScrapePacer pacer;
  private volatile Map<ScrapeTarget, TargetScraper> scrapers = Map.of();
  private volatile TargetScraper[][] bySlot = emptySlots();

  /** How many slots one scrape interval is divided into. */
  static final int SLOTS = 20;

  static final int CONNECTIONS_PER_ADDRESS = 32;

  /**
   * The page arrays kept for reuse: enough for the pages of one slot's targets in flight at once.
   */
  static final int PAGE_BUFFERS = 64;

  private volatile long timer = -1;

  /**
   * Slots due and not yet started, as a fraction: each tick adds the time since the previous one
   * over the (stretched) time of a slot.
   */
  private double phase;

  private int nextSlot;
  private long lastTickNanos;

  ScrapeLoop(Vertx vertx, SeriesStore store, TelemetryOptions options, LongSupplier clock) {
    this(vertx, store, options, clock, TargetLimits.STANDARD);
  }

  ScrapeLoop(
      Vertx vertx,
      SeriesStore store,
      TelemetryOptions options,
      LongSupplier clock,
      TargetLimits limits) {
    this(
        vertx,
        store,
        options,
        clock,
        limits,
        new ScrapePacer(
            options.scrapeIntervalMillis(),
            options.scrapeTimeoutMillis(),
            options.maxStretchedIntervalMillis(),
            new CpuBusy(),
            clock));
  }

  ScrapeLoop(
      Vertx vertx,
      SeriesStore store,
      TelemetryOptions options,
      LongSupplier clock,
      TargetLimits limits,
      ScrapePacer pacer) {
    this.vertx = vertx;
    this.pacer = pacer;
    this.limits = limits;
    this.store = store;
    this.options = options;
    this.clock = clock;
    this.scrapeLog = new ScrapeLog(System.getLogger(TargetScraper.class.getName()), clock);
    int cores = Runtime.getRuntime().availableProcessors();
    HttpClientOptions http =
        new HttpClientOptions()
            .setName("bulwark-telemetry")
            .setConnectTimeout((int) options.scrapeTimeoutMillis())
            .setKeepAlive(true)
            .setKeepAliveTimeout((int) Math.max(10, 3 * options.scrapeIntervalMillis() / 1000));
    // Vert.x pools connections per host:port; many targets may share one exporter address
    // (different paths, as the simulator serves them), and a hanging one must not make the others
    // queue behind it.
    PoolOptions pool =
        new PoolOptions()
            .setHttp1MaxSize(CONNECTIONS_PER_ADDRESS)
            .setEventLoopSize(Math.max(1, Math.min(8, cores)));
    this.client = vertx.createHttpClient(http, pool);
    this.parsers =
        vertx.createSharedWorkerExecutor(PARSER_POOL, Math.max(2, cores / 2), 10, TimeUnit.SECONDS);
  }

  /**
   * Starts scraping every target once per interval. The targets are spread over the interval, each
   * in a slot fixed by its URL (as Prometheus spreads them), so that thousands of targets do not
   * all start at the same tick and time out behind each other. While the {@link ScrapePacer} sheds
   * load the slots come round more slowly: every target's interval stretches evenly.
   */
  void start() {
    long tick = Math.max(1, options.scrapeIntervalMillis() / SLOTS);
    timer = vertx.setPeriodic(tick, id -> tick(tick));
  }

  /**
   * One tick of the scrape timer: starts the slots due by the clock (a tick that comes late starts
   * the slots it missed, so the interval holds however busy the event loop is), ending a round
   * after the last slot. A stall longer than a round starts one round, not the rounds missed.
   */
  void tick(long tickMillis) {
    long now = System.nanoTime();
    if (lastTickNanos == 0) {
      lastTickNanos = now;
      phase = 1.0;
    } else {
      long elapsed = now - lastTickNanos;
      lastTickNanos = now;
      pacer.late(Math.max(0, elapsed / 1_000_000 - tickMillis));
      phase += elapsed / (tickMillis * 1_000_000.0 * pacer.stretch());
      phase = Math.min(phase, SLOTS);
    }
    while (phase >= 1.0) {
      phase -= 1.0;
      scrapeSlot(nextSlot);
      nextSlot = nextSlot + 1 == SLOTS ? 0 : nextSlot + 1;
      if (nextSlot == 0) {
        pacer.endRound();
      }
    }
  }

  /** Returns what load shedding is doing. */
  ScrapePacer.Report pacing() {
    return pacer.report();
  }

  /** Scrapes the targets whose slot is {@code slot}. */
  void scrapeSlot(int slot) {
    for (TargetScraper scraper : bySlot[slot]) {
      scraper.scrape();
    }
  }

  /** Returns the slot of the interval in which {@code target} is scraped. */
  static int slotOf(ScrapeTarget target) {
    return Math.floorMod(target.url().hashCode() * 0x9E3779B1, SLOTS);
  }

  /** Replaces the target list; targets that stay keep their status. */
  synchronized void setTargets(List<ScrapeTarget> targets) {
    Map<ScrapeTarget, TargetScraper> current = scrapers;
    Map<ScrapeTarget, TargetScraper> next = new LinkedHashMap<>();
    for (ScrapeTarget target : targets) {
      TargetScraper scraper = current.get(target);
      next.put(
          target,
          scraper != null
              ? scraper
              : new TargetScraper(
                  target, store, vertx, client, parsers, buffers, pacer, clock, limits, scrapeLog));
    }
    List<List<TargetScraper>> slots = new ArrayList<>();
    for (int i = 0; i < SLOTS; i++) {
      slots.add(new ArrayList<>());
    }
    next.forEach((target, scraper) -> slots.get(slotOf(target)).add(scraper));
    TargetScraper[][] grouped = new TargetScraper[SLOTS][];
    for (int i = 0; i < SLOTS; i++) {
      grouped[i] = slots.get(i).toArray(new TargetScraper[0]);
    }
    scrapers = Map.copyOf(next);
    bySlot = grouped;
  }

  private static TargetScraper[][] emptySlots() {
    TargetScraper[][] none = new TargetScraper[SLOTS][];
    java.util.Arrays.fill(none, new TargetScraper[0]);
    return none;
  }

  /**
   * Scrapes every target now; the future completes when all of them are done, with their statuses.
   */
  Future<List<TargetStatus>> scrapeAll() {
    List<Future<TargetStatus>> running = new ArrayList<>();
    for (TargetScraper scraper : scrapers.values()) {
      running.add(scraper.scrape());
    }
    return Future.join(running).transform(done -> Future.succeededFuture(sorted(running)));
  }

  /** Tells every target's filer that {@code node} was forgotten. */
  void forget(NodeId node) {
    for (TargetScraper scraper : scrapers.values()) {
      scraper.forget(node);
    }
  }

  /** Returns the samples dropped for a limit by every target's latest page. */
  long droppedForLimits() {
    long dropped = 0;
    for (TargetScraper scraper : scrapers.values()) {
      dropped += scraper.droppedForLimits();
    }
    return dropped;
  }

  /** Returns the status of every target, sorted by URL. */
  List<TargetStatus> statuses() {
    List<TargetStatus> statuses = new ArrayList<>();
    for (TargetScraper scraper : scrapers.values()) {
      statuses.add(scraper.status());
    }
    statuses.sort(Comparator.comparing(status -> status.target().url()));
    return statuses;
  }

  @Override
  public void close() {
    if (timer >= 0) {
      vertx.cancelTimer(timer);
    }
    client.close();
    parsers.close();
  }

  private static List<TargetStatus> sorted(List<Future<TargetStatus>> finished) {
    List<TargetStatus> statuses = new ArrayList<>();
    for (Future<TargetStatus> future : finished) {
      statuses.add(future.result());
    }
    statuses.sort(Comparator.comparing(status -> status.target().url()));
    return statuses;
  }
}
