package io.bulwark.telemetry.internal;

import io.bulwark.api.fleet.Gpu;
import io.bulwark.api.fleet.NodeId;
import io.bulwark.api.telemetry.Sample;
import io.bulwark.api.telemetry.SampleWindow;
import io.bulwark.api.telemetry.ScrapeTarget;
import io.bulwark.api.telemetry.SeriesId;
import io.bulwark.api.telemetry.TargetStatus;
import io.bulwark.api.telemetry.TelemetryQuery;
import io.bulwark.api.telemetry.TelemetryTargets;
import io.vertx.core.Vertx;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.Comparator;
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
 * detectors and the web API) and {@link TelemetryTargets} (how each scrape target is doing).
 * Configured by PID {@code io.bulwark.telemetry} ({@link TelemetryConfig}); runs with the defaults
 * when there is no configuration.
 *
 * <p>A problem with the targets file itself (missing, unreadable, malformed) shows in {@link
 * #targets()} as one extra DOWN entry whose URL is the file's {@code file://} URL, so that an
 * operator sees it next to the targets.
 */
@Designate(ocd = TelemetryConfig.class)
@Component(
    configurationPid = TelemetryOptions.PID,
    configurationPolicy = ConfigurationPolicy.REQUIRE,
    service = {TelemetryQuery.class, TelemetryTargets.class})
public final class DcgmTelemetry implements TelemetryQuery, TelemetryTargets {
  private static final System.Logger LOG = System.getLogger(DcgmTelemetry.class.getName());
  private static final long FILE_POLL_MILLIS = 1000;
  private static final long MIN_ROLLUP_GRACE_MILLIS = 5000;

  private final Vertx vertx;
  private final SeriesStore store;
  private final ScrapeLoop loop;
  private final TargetsFileWatcher watcher;
  private final ScrapeTarget fileTarget;
  private final long filePoll;
  private final RollupArchive archive;

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
    this.store = new SeriesStore(options.retentionSamples(), rollups.minutes());
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
    this.loop = new ScrapeLoop(vertx, store, options, System::currentTimeMillis);
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
            + " keeping {3} samples and {4} minutes of roll-ups per series; roll-up files: {5}",
        options.fileSd(),
        options.scrapeIntervalMillis(),
        options.scrapeTimeoutMillis(),
        options.retentionSamples(),
        rollups.minutes(),
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

  /**
   * Returns the one-minute roll-ups (min, avg, max, count) of {@code series} that start at or after
   * {@code fromMillis}, oldest first: closed minutes only, over the last {@code rollupHours}
   * (restored from the roll-up folder after a restart). Empty if the series is unknown or roll-ups
   * are off. Thread-safe; never blocks on a scrape.
   */
  public List<MinuteRollup> rollup(SeriesId series, long fromMillis) {
    return store.rollup(series, fromMillis);
  }
}
