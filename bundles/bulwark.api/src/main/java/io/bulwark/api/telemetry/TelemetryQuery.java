package io.bulwark.api.telemetry;

import io.bulwark.api.fleet.Gpu;
import io.bulwark.api.fleet.NodeId;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;

/**
 * Reads the recent samples that telemetry keeps in memory. Provided by the telemetry bundle; used
 * by the detectors and the web API. All methods are thread-safe and never block on a scrape;
 * results are copies.
 */
@org.osgi.annotation.versioning.ProviderType
public interface TelemetryQuery {

  /** Returns every node that telemetry has samples for. Never null. */
  Set<NodeId> nodes();

  /**
   * Returns the GPUs of {@code node} that its latest successful scrape reported, with UUID and
   * model from the exporter's labels, sorted by index. Empty if the node is unknown.
   */
  List<Gpu> reportedGpus(NodeId node);

  /**
   * Returns when the node was last scraped successfully (epoch milliseconds), or empty if never.
   */
  OptionalLong lastScrapeMillis(NodeId node);

  /** Returns the metric names that have samples on this node. */
  Set<String> metrics(NodeId node);

  /**
   * Returns the samples of {@code series} taken at or after {@code fromMillis}, oldest first. Empty
   * if the series is unknown or has no such samples.
   */
  SampleWindow window(SeriesId series, long fromMillis);

  /** Returns the newest sample of {@code series}, or null if there is none. */
  Sample latest(SeriesId series);

  /**
   * Returns the one-minute roll-ups (min, mean, max, count) of {@code series} that start at or
   * after {@code fromMillis}, oldest first: closed minutes only (the minute being filled is not
   * included), over the hours telemetry keeps roll-ups for (restored from its roll-up files after a
   * restart). Empty if the series is unknown or roll-ups are off.
   *
   * @since 1.4
   */
  List<MinuteRollup> rollup(SeriesId series, long fromMillis);
}
