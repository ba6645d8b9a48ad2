package io.bulwark.health.internal;

import io.bulwark.api.fleet.Gpu;
import io.bulwark.api.fleet.NodeId;
import io.bulwark.api.telemetry.Sample;
import io.bulwark.api.telemetry.SampleWindow;
import io.bulwark.api.telemetry.SeriesId;
import io.bulwark.api.telemetry.TelemetryQuery;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.IntStream;

/**
 * Internal test double of the telemetry query for the engine tests: nodes with the GPUs they report and when they
 * were last scraped. The engine reads no samples itself, so this double keeps none.
 */
final class InMemoryTelemetry implements TelemetryQuery {
  private final Map<NodeId, List<Gpu>> reported = new TreeMap<>();
  private final Map<NodeId, Long> lastScrape = new TreeMap<>();

  /** Makes {@code node} report GPUs 0..count-1 of {@code model}, scraped at {@code atMillis}. */
  void report(String node, int count, String model, long atMillis) {
    NodeId id = NodeId.of(node);
    reported.put(id, IntStream.range(0, count)
        .mapToObj(i -> new Gpu(i, "GPU-" + node + "-" + i, model)).toList());
    lastScrape.put(id, atMillis);
  }

  void scrapedAt(String node, long atMillis) {
    lastScrape.put(NodeId.of(node), atMillis);
  }

  @Override
  public Set<NodeId> nodes() {
    return Set.copyOf(reported.keySet());
  }

  @Override
  public List<Gpu> reportedGpus(NodeId node) {
    return reported.getOrDefault(node, List.of());
  }

  @Override
  public OptionalLong lastScrapeMillis(NodeId node) {
    Long at = lastScrape.get(node);
    return at == null ? OptionalLong.empty() : OptionalLong.of(at);
  }

  @Override
  public Set<String> metrics(NodeId node) {
    return Set.of();
  }

  @Override
  public SampleWindow window(SeriesId series, long fromMillis) {
    return SampleWindow.empty();
  }

  @Override
  public Sample latest(SeriesId series) {
    return null;
  }
}
