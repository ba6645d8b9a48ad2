package io.bulwark.telemetry.internal;

import io.bulwark.api.fleet.Gpu;
import io.bulwark.api.fleet.NodeId;
import io.bulwark.api.system.SubsystemCheck;
import io.bulwark.api.system.SubsystemStatus;
import io.bulwark.api.telemetry.IngestReceipt;
import io.bulwark.api.telemetry.MinuteRollup;
import io.bulwark.api.telemetry.Rollup;
import io.bulwark.api.telemetry.Sample;
import io.bulwark.api.telemetry.SampleWindow;
import io.bulwark.api.telemetry.ScrapeTarget;
import io.bulwark.api.telemetry.SeriesId;
import io.bulwark.api.telemetry.TargetStatus;
import io.bulwark.api.telemetry.TelemetryBatch;
import io.bulwark.api.telemetry.TelemetryIngest;
import io.bulwark.api.telemetry.TelemetryQuery;
import io.bulwark.api.telemetry.TelemetryTargets;
import io.vertx.core.Vertx;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.metatype.annotations.Designate;

/**
 * Telemetry of the GPU fleet: scrapes the dcgm-exporters listed in the file_sd targets file every
 * interval, keeps their recent samples and minute roll-ups in memory (archiving the roll-ups to
 * hourly files when a roll-up folder is configured), and provides {@link TelemetryQuery} (to the
 * detectors and the web API), {@link TelemetryTargets} (how each scrape target is doing) and {@link
 * TelemetryIngest} (readings pushed by other bundles, filed beside the scraped ones). Configured by
 * PID {@code io.bulwark.telemetry} ({@link TelemetryConfig}); runs with the defaults when there is
 * no configuration.
 *
 * <p>A problem with the targets file itself (missing, unreadable, malformed) shows in {@link
 * #targets()} as one extra DOWN entry whose URL is the file's {@code file://} URL, so that an
 * operator sees it next to the targets.
 */
@Designate(ocd = TelemetryConfig.class)
@Component(
    configurationPid = TelemetryOptions.PID,
    configurationPolicy = ConfigurationPolicy.REQUIRE,
    service = {
      TelemetryQuery.class,
      TelemetryTargets.class,
      TelemetryIngest.class,
      SubsystemCheck.class
    })
public final class DcgmTelemetry
    implements TelemetryQuery, TelemetryTargets, TelemetryIngest, SubsystemCheck {
  private static final System.Logger LOG = System.getLogger(DcgmTelemetry.class.getName());
  private static final long FILE_POLL_MILLIS = 1000;
  private static final long MIN_ROLLUP_GRACE_MILLIS = 5000;

  /** How long a node must have been silent before it can be forgotten. */
  static final long FORGET_QUIET_MILLIS = 60_000;

  private final Vertx vertx;
  private final SeriesStore store;
  private final ScrapeLoop loop;
  private final TargetsFileWatcher watcher;
  private final ScrapeTarget fileTarget;
  private final long filePoll;
  private final RollupArchive archive;
  private final TelemetryHealth health;
  private final PushedSamples pushed;

  /**
   * Starts telemetry with the shared Vert.x instance.
   *
   * @throws IllegalArgumentException if the configuration holds a value telemetry cannot work with
   */
  @Activate
  public DcgmTelemetry(@Reference Vertx vertx, TelemetryConfig config) {
    TelemetryOptions options = TelemetryOptions.from(config);
    RollupOptions rollups = RollupOptions.from(config);
    this.vertx = vertx;
    this.store =
        new SeriesStore(
            options.retentionSamples(),
            rollups.minutes(),
            SeriesBudget.of(
                config.maxSeries(),
                Runtime.getRuntime().maxMemory(),
                options.retentionSamples(),
                rollups.minutes()));
    this.archive =
        rollups.archived()
            ? new RollupArchive(
                store,
                rollups,
                Math.max(
                    MIN_ROLLUP_GRACE_MILLIS,
                    options.scrapeIntervalMillis() + options.scrapeTimeoutMillis()),
                System::currentTimeMillis)
            : null;
    this.loop =
        new ScrapeLoop(vertx, store, options, System::currentTimeMillis, TargetLimits.from(config));
    this.health = new TelemetryHealth(options, Clock.systemUTC());
    this.pushed = new PushedSamples(store, System::currentTimeMillis);
    this.watcher = new TargetsFileWatcher(options.fileSd(), loop::setTargets);
    this.fileTarget =
        new ScrapeTarget(
            "localhost",
            "file",
            options.fileSd().toAbsolutePath().toString(),
            Map.of("source", "file_sd"));
    watcher.poll();
    loop.start();
    if (archive != null) {
      archive.start();
    }
    this.filePoll =
        vertx.setPeriodic(
            FILE_POLL_MILLIS,
            id ->
                vertx.executeBlocking(
                    () -> {
                      watcher.poll();
                      return null;
                    },
                    false));
    LOG.log(
        Level.INFO,
        "Telemetry started: scraping the targets in {0} every {1} ms (timeout {2} ms),"
            + " keeping {3} samples and {4} minutes of roll-ups per series, {5} series at most;"
            + " roll-up files: {6}",
        options.fileSd(),
        options.scrapeIntervalMillis(),
        options.scrapeTimeoutMillis(),
        options.retentionSamples(),
        rollups.minutes(),
        store.budget().limit(),
        rollups.archived() ? rollups.folder() : "none");
  }

  /**
   * Stops scraping and polling and writes the minutes closed so far to the roll-up folder; the
   * samples kept in memory go with the component.
   */
  @Deactivate
  void stop() {
    vertx.cancelTimer(filePoll);
    loop.close();
    if (archive != null) {
      archive.close();
    }
  }

  @Override
  public List<TargetStatus> targets() {
    List<TargetStatus> statuses = new ArrayList<>(loop.statuses());
    String problem = watcher.problem();
    if (!problem.isEmpty()) {
      statuses.add(new TargetStatus(fileTarget, TargetStatus.Health.DOWN, "", null, 0, 0, problem));
      statuses.sort(Comparator.comparing(status -> status.target().url()));
    }
    return statuses;
  }

  @Override
  public boolean forget(NodeId node) {
    long now = System.currentTimeMillis();
    for (TargetStatus target : loop.statuses()) {
      if (target.node().equals(node.value())
          && target.lastScrape() != null
          && now - target.lastScrape().toEpochMilli() < FORGET_QUIET_MILLIS) {
        throw new IllegalStateException(
            "telemetry still receives samples of "
                + node.value()
                + " from "
                + target.target().url()
                + ": remove that target from the targets file (or stop its exporter) first");
      }
    }
    OptionalLong last = store.lastScrapeMillis(node);
    if (last.isPresent() && now - last.getAsLong() < FORGET_QUIET_MILLIS) {
      throw new IllegalStateException(
          "telemetry received samples of "
              + node.value()
              + " less than a minute ago: stop the exporter that reports it first");
    }
    loop.forget(node);
    boolean known = store.forget(node);
    if (known) {
      LOG.log(Level.INFO, "Telemetry forgot node {0}", node.value());
    }
    return known;
  }

  @Override
  public SubsystemStatus status() {
    return health.status(
        loop.statuses(),
        watcher.problem(),
        store.budget(),
        store.nodeCount(),
        loop.droppedForLimits(),
        loop.pacing());
  }

  @Override
  public Set<NodeId> nodes() {
    return store.nodes();
  }

  @Override
  public List<Gpu> reportedGpus(NodeId node) {
    return store.reportedGpus(node);
  }

  @Override
  public OptionalLong lastScrapeMillis(NodeId node) {
    return store.lastScrapeMillis(node);
  }

  @Override
  public Set<String> metrics(NodeId node) {
    return store.metrics(node);
  }

  @Override
  public SampleWindow window(SeriesId series, long fromMillis) {
    return store.window(series, fromMillis);
  }

  @Override
  public Sample latest(SeriesId series) {
    return store.latest(series);
  }

  @Override
  public List<MinuteRollup> rollup(SeriesId series, long fromMillis) {
    return store.rollup(series, fromMillis);
  }

  @Override
  public Map<SeriesId, List<Rollup>> history(NodeId node, Set<String> metrics, long fromMillis) {
    Map<SeriesId, List<Rollup>> history = new HashMap<>();
    long minutesFrom =
        archive == null ? fromMillis : archive.history(node, metrics, fromMillis, history);
    store.history(node, metrics, minutesFrom, history);
    return history;
  }

  @Override
  public long sampleIntervalMillis() {
    return loop.pacing().intervalMillis();
  }

  @Override
  public IngestReceipt push(TelemetryBatch batch) {
    return pushed.push(batch);
  }
}
