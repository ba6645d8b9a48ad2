package io.bulwark.health.dcgm.internal;

import io.bulwark.api.fleet.Gpu;
import io.bulwark.api.fleet.NodeId;
import io.bulwark.api.telemetry.Sample;
import io.bulwark.api.telemetry.SampleWindow;
import io.bulwark.api.telemetry.SeriesId;
import io.bulwark.api.telemetry.TelemetryQuery;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Internal test double of the telemetry query for the detector tests: series of samples kept in memory, the GPUs
 * each node reports and when it was last scraped.
 */
final class InMemoryTelemetry implements TelemetryQuery {
  private final Map<SeriesId, List<Sample>> series = new HashMap<>();
  private final Map<NodeId, List<Gpu>> reported = new TreeMap<>();
  private final Map<NodeId, Long> lastScrape = new TreeMap<>();

  void report(NodeId node, List<Gpu> gpus, long atMillis) {
    reported.put(node, List.copyOf(gpus));
    lastScrape.put(node, atMillis);
  }

  void add(NodeId node, int gpu, String metric, long atMillis, double value) {
    series.computeIfAbsent(SeriesId.of(node, gpu, metric), k -> new ArrayList<>()).add(new Sample(atMillis, value));
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
    return series.keySet().stream().filter(s -> s.node().equals(node)).map(SeriesId::metric)
        .collect(Collectors.toSet());
  }

  @Override
  public SampleWindow window(SeriesId id, long fromMillis) {
    List<Sample> samples = series.getOrDefault(id, List.of()).stream()
        .filter(s -> s.timestampMillis() >= fromMillis).toList();
    long[] t = samples.stream().mapToLong(Sample::timestampMillis).toArray();
    double[] v = samples.stream().mapToDouble(Sample::value).toArray();
    return SampleWindow.wrap(t, v, samples.size());
  }

  @Override
  public Sample latest(SeriesId id) {
    List<Sample> samples = series.getOrDefault(id, List.of());
    return samples.isEmpty() ? null : samples.get(samples.size() - 1);
  }
}
