package io.bulwark.telemetry.internal;

import io.bulwark.api.fleet.Gpu;
import io.bulwark.api.fleet.NodeId;
import io.bulwark.api.telemetry.MinuteRollup;
import io.bulwark.api.telemetry.Rollup;
import io.bulwark.api.telemetry.Sample;
import io.bulwark.api.telemetry.SampleWindow;
import io.bulwark.api.telemetry.SeriesId;
import io.bulwark.api.telemetry.TelemetryQuery;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The in-memory store of recent samples, per node, metric and GPU, each series in a ring of {@code
 * retention} samples. Scrapes write through {@link #node}; the telemetry component answers {@link
 * TelemetryQuery} from it. Each series may also keep minute roll-ups of its last hours ({@link
 * #rollup}). Thread-safe; reads never wait for a scrape to finish and return copies.
 */
final class SeriesStore implements TelemetryQuery {
  private final int retention;
  private final int rollupMinutes;
  private final SeriesBudget budget;
  private final Map<NodeId, NodeSeries> nodes = new ConcurrentHashMap<>();

  /** Creates a store that keeps the newest {@code retention} samples of every series. */
  public SeriesStore(int retention) {
    this(retention, 0);
  }

  /**
   * Creates a store that keeps the newest {@code retention} samples of every series and the
   * roll-ups of its last {@code rollupMinutes} minutes (none if 0).
   */
  public SeriesStore(int retention, int rollupMinutes) {
    this(retention, rollupMinutes, SeriesBudget.UNLIMITED);
  }

  /**
   * Creates a store that keeps the newest {@code retention} samples of every series, the roll-ups
   * of its last {@code rollupMinutes} minutes, and no more series than {@code budget} allows.
   */
  SeriesStore(int retention, int rollupMinutes, SeriesBudget budget) {
    if (retention < 1) {
      throw new IllegalArgumentException("retention must be at least one sample, not " + retention);
    }
    if (rollupMinutes < 0) {
      throw new IllegalArgumentException(
          "roll-ups must keep zero or more minutes, not " + rollupMinutes);
    }
    this.retention = retention;
    this.rollupMinutes = rollupMinutes;
    this.budget = budget;
  }

  /**
   * Returns the record of {@code node} for a scrape to write into, creating it; it is listed by
   * {@link #nodes()} once a scrape is recorded for it.
   */
  NodeSeries node(NodeId node) {
    return known(node);
  }

  private NodeSeries known(NodeId node) {
    NodeSeries series = nodes.get(node);
    return series != null
        ? series
        : nodes.computeIfAbsent(node, id -> new NodeSeries(id, retention, rollupMinutes, budget));
  }

  /**
   * Forgets {@code node}: its series and roll-ups in memory go, and their place in the budget is
   * free again. Returns false if the store does not know the node. A later scrape that reports the
   * node starts it afresh.
   */
  boolean forget(NodeId node) {
    NodeSeries removed = nodes.remove(node);
    if (removed == null) {
      return false;
    }
    removed.release();
    return true;
  }

  /** Returns the budget of series. */
  SeriesBudget budget() {
    return budget;
  }

  /** Returns how many nodes the store knows (scraped or restored from roll-up files). */
  int nodeCount() {
    return nodes.size();
  }

  /**
   * Returns the ring of {@code series} for roll-ups read back from files, creating it, or null if
   * the series budget is spent; a node known only this way is not listed by {@link #nodes()} until
   * it is scraped.
   */
  SeriesRing ringForRestore(SeriesId series) {
    return known(series.node()).ringForWriting(series.metric(), series.gpu());
  }

  /** Calls {@code visitor} with every series of the store, in no particular order. */
  void forEachSeries(SeriesVisitor visitor) {
    nodes.values().forEach(node -> node.forEachSeries(visitor));
  }

  int rollupMinutes() {
    return rollupMinutes;
  }

  @Override
  public List<MinuteRollup> rollup(SeriesId series, long fromMillis) {
    SeriesRing ring = ring(series);
    return ring == null ? List.of() : ring.rollup(fromMillis);
  }

  /**
   * Adds to {@code into} the one-minute roll-ups kept in memory of the series of {@code node} whose
   * metric is in {@code metrics}, from {@code fromMillis} on, after any already there.
   */
  void history(
      NodeId node, Set<String> metrics, long fromMillis, Map<SeriesId, List<Rollup>> into) {
    NodeSeries series = nodes.get(node);
    if (series == null) {
      return;
    }
    series.forEachSeries(
        (id, gpu, metric, ring) -> {
          if (metrics.contains(metric)) {
            List<MinuteRollup> minutes = ring.rollup(fromMillis);
            if (!minutes.isEmpty()) {
              List<Rollup> list =
                  into.computeIfAbsent(SeriesId.of(id, gpu, metric), k -> new ArrayList<>());
              minutes.forEach(m -> list.add(Rollup.of(m)));
            }
          }
        });
  }

  /** Returns the record of {@code node}, or null if telemetry has never heard of it. */
  NodeSeries existingNode(NodeId node) {
    return nodes.get(node);
  }

  /**
   * Appends one sample; returns false if it is not newer than the newest sample of its series, or
   * if the series would be new and the budget is spent.
   */
  boolean append(SeriesId series, long timestampMillis, double value) {
    SeriesRing ring = node(series.node()).ringForWriting(series.metric(), series.gpu());
    return ring != null && ring.append(timestampMillis, value);
  }

  /**
   * Records a successful scrape of {@code node} at {@code scrapeMillis} that reported {@code gpus}.
   */
  void recordScrape(NodeId node, Collection<Gpu> gpus, long scrapeMillis) {
    node(node).recordScrape(gpus, scrapeMillis);
  }

  @Override
  public Set<NodeId> nodes() {
    TreeSet<NodeId> live = new TreeSet<>();
    nodes.forEach(
        (id, node) -> {
          if (node.live()) {
            live.add(id);
          }
        });
    return Collections.unmodifiableSortedSet(live);
  }

  @Override
  public List<Gpu> reportedGpus(NodeId node) {
    NodeSeries series = nodes.get(Objects.requireNonNull(node, "node"));
    return series == null ? List.of() : series.reportedGpus();
  }

  @Override
  public OptionalLong lastScrapeMillis(NodeId node) {
    NodeSeries series = nodes.get(Objects.requireNonNull(node, "node"));
    return series == null ? OptionalLong.empty() : series.lastScrapeMillis();
  }

  @Override
  public Set<String> metrics(NodeId node) {
    NodeSeries series = nodes.get(Objects.requireNonNull(node, "node"));
    return series == null ? Set.of() : Collections.unmodifiableSortedSet(series.metricNames());
  }

  @Override
  public SampleWindow window(SeriesId series, long fromMillis) {
    SeriesRing ring = ring(series);
    return ring == null ? SampleWindow.empty() : ring.window(fromMillis);
  }

  @Override
  public Sample latest(SeriesId series) {
    SeriesRing ring = ring(series);
    return ring == null ? null : ring.latest();
  }

  private SeriesRing ring(SeriesId series) {
    NodeSeries node = nodes.get(Objects.requireNonNull(series, "series").node());
    return node == null ? null : node.ring(series.metric(), series.gpu());
  }

  /** Receives the series of the store, one at a time. */
  @FunctionalInterface
  interface SeriesVisitor {
    void visit(NodeId node, int gpu, String metric, SeriesRing ring);
  }
}
