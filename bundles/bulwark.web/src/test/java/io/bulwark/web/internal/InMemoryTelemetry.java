package io.bulwark.web.internal;

import io.bulwark.api.fleet.Gpu;
import io.bulwark.api.fleet.NodeId;
import io.bulwark.api.telemetry.Sample;
import io.bulwark.api.telemetry.SampleWindow;
import io.bulwark.api.telemetry.SeriesId;
import io.bulwark.api.telemetry.TargetStatus;
import io.bulwark.api.telemetry.TelemetryQuery;
import io.bulwark.api.telemetry.TelemetryTargets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * In-memory telemetry that stands in for the telemetry bundle's TelemetryQuery and TelemetryTargets in unit
 * tests: samples, reported GPUs, scrape times and target statuses exactly as a test puts them.
 */
final class InMemoryTelemetry implements TelemetryQuery, TelemetryTargets {
  private final Map<SeriesId, List<Sample>> series = new ConcurrentHashMap<>();
  private final Map<NodeId, List<Gpu>> reported = new ConcurrentHashMap<>();
  private final Map<NodeId, Long> lastScrape = new ConcurrentHashMap<>();
  private final List<TargetStatus> targets = new CopyOnWriteArrayList<>();

  void sample(NodeId node, int gpu, String metric, long at, double value) {
    series.computeIfAbsent(SeriesId.of(node, gpu, metric), k -> new CopyOnWriteArrayList<>())
        .add(new Sample(at, value));
  }

  void reported(NodeId node, List<Gpu> gpus, long scrapedAt) {
    reported.put(node, List.copyOf(gpus));
    lastScrape.put(node, scrapedAt);
  }

  void target(TargetStatus status) {
    targets.add(status);
  }

  @Override
  public Set<NodeId> nodes() {
    return new TreeSet<>(reported.keySet());
  }

  @Override
  public List<Gpu> reportedGpus(NodeId node) {
    return reported.getOrDefault(node, List.of()).stream().sorted(Comparator.comparingInt(Gpu::index)).toList();
  }

  @Override
  public OptionalLong lastScrapeMillis(NodeId node) {
    Long at = lastScrape.get(node);
    return at == null ? OptionalLong.empty() : OptionalLong.of(at);
  }

  @Override
  public Set<String> metrics(NodeId node) {
    Set<String> names = new TreeSet<>();
    series.keySet().stream().filter(s -> s.node().equals(node)).forEach(s -> names.add(s.metric()));
    return names;
  }

  @Override
  public SampleWindow window(SeriesId id, long fromMillis) {
    List<Sample> selected = new ArrayList<>();
    for (Sample s : series.getOrDefault(id, List.of())) {
      if (s.timestampMillis() >= fromMillis) {
        selected.add(s);
      }
    }
    selected.sort(Comparator.comparingLong(Sample::timestampMillis));
    long[] t = new long[selected.size()];
    double[] v = new double[selected.size()];
    for (int i = 0; i < t.length; i++) {
      t[i] = selected.get(i).timestampMillis();
      v[i] = selected.get(i).value();
    }
    return SampleWindow.wrap(t, v, t.length);
  }

  @Override
  public Sample latest(SeriesId id) {
    List<Sample> samples = series.getOrDefault(id, List.of());
    return samples.stream().max(Comparator.comparingLong(Sample::timestampMillis)).orElse(null);
  }

  @Override
  public List<TargetStatus> targets() {
    return List.copyOf(targets);
  }
}
