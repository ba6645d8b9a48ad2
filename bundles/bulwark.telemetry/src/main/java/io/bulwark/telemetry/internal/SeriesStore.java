package io.bulwark.telemetry.internal;

import io.bulwark.api.fleet.Gpu;
import io.bulwark.api.fleet.NodeId;
import io.bulwark.api.telemetry.Sample;
import io.bulwark.api.telemetry.SampleWindow;
import io.bulwark.api.telemetry.SeriesId;
import io.bulwark.api.telemetry.TelemetryQuery;
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
 * TelemetryQuery} from it. Thread-safe; reads never wait for a scrape to finish and return copies.
 */
public final class SeriesStore implements TelemetryQuery {
  private final int retention;
  private final Map<NodeId, NodeSeries> nodes = new ConcurrentHashMap<>();

  /** Creates a store that keeps the newest {@code retention} samples of every series. */
  public SeriesStore(int retention) {
    if (retention < 1) {
      throw new IllegalArgumentException("retention must be at least one sample, not " + retention);
    }
    this.retention = retention;
  }

  /** Returns the record of {@code node} for a scrape to write into, creating it. */
  NodeSeries node(NodeId node) {
    NodeSeries series = nodes.get(node);
    return series != null
        ? series
        : nodes.computeIfAbsent(node, id -> new NodeSeries(id, retention));
  }

  /** Returns the record of {@code node}, or null if telemetry has never heard of it. */
  NodeSeries existingNode(NodeId node) {
    return nodes.get(node);
  }

  /** Appends one sample; returns false if it is not newer than the newest sample of its series. */
  boolean append(SeriesId series, long timestampMillis, double value) {
    return node(series.node())
        .ringForWriting(series.metric(), series.gpu())
        .append(timestampMillis, value);
  }

  /**
   * Records a successful scrape of {@code node} at {@code scrapeMillis} that reported {@code gpus}.
   */
  void recordScrape(NodeId node, Collection<Gpu> gpus, long scrapeMillis) {
    node(node).recordScrape(gpus, scrapeMillis);
  }

  @Override
  public Set<NodeId> nodes() {
    return Collections.unmodifiableSortedSet(new TreeSet<>(nodes.keySet()));
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
}
