package io.bulwark.api.telemetry;

import io.bulwark.api.fleet.Gpu;
import io.bulwark.api.fleet.NodeId;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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

  /**
   * Returns the interval at which telemetry now takes its samples, in milliseconds: the scrape
   * interval, or longer while telemetry sheds load because the appliance cannot keep up (the
   * telemetry subsystem's report says so and why). Consumers that evaluate the samples periodically
   * gain nothing by doing so more often. The default, 0, means telemetry does not say.
   *
   * @since 2.2
   */
  default long sampleIntervalMillis() {
    return 0;
  }

  /**
   * Returns the history of the series of {@code node} whose metric is in {@code metrics}, from
   * {@code fromMillis} on, oldest first per series: the ten-minute roll-ups of the hours telemetry
   * has archived (kept for its retention in days), then the one-minute roll-ups it keeps in memory
   * from where those end. Series with no roll-up in the range are left out. This may read files;
   * call it off event loops. The default returns the minutes kept in memory only.
   *
   * @since 2.1
   */
  default Map<SeriesId, List<Rollup>> history(NodeId node, Set<String> metrics, long fromMillis) {
    Map<SeriesId, List<Rollup>> history = new HashMap<>();
    List<Integer> gpus = new java.util.ArrayList<>();
    gpus.add(-1);
    reportedGpus(node).forEach(g -> gpus.add(g.index()));
    for (String metric : metrics) {
      for (int gpu : gpus) {
        SeriesId series = SeriesId.of(node, gpu, metric);
        List<Rollup> minutes = rollup(series, fromMillis).stream().map(Rollup::of).toList();
        if (!minutes.isEmpty()) {
          history.put(series, minutes);
        }
      }
    }
    return history;
  }
}
