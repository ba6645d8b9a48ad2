package io.bulwark.testing;

import io.bulwark.api.fleet.Gpu;
import io.bulwark.api.fleet.NodeId;
import io.bulwark.api.telemetry.MinuteRollup;
import io.bulwark.api.telemetry.Sample;
import io.bulwark.api.telemetry.SampleWindow;
import io.bulwark.api.telemetry.SeriesId;
import io.bulwark.api.telemetry.TargetStatus;
import io.bulwark.api.telemetry.TelemetryQuery;
import io.bulwark.api.telemetry.TelemetryTargets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.IntStream;

/**
 * Test double for the telemetry bundle's {@link TelemetryQuery} and {@link TelemetryTargets}: keeps
 * samples per series, the GPUs each node reported with the time of its last scrape, and target
 * statuses, exactly as a test puts them. It stands in for the real telemetry bundle and is used by
 * unit tests only. Samples are kept oldest first whatever order they are added in; results follow
 * the query contract (nodes and metrics sorted, GPUs sorted by index, targets sorted by URL) and
 * are copies. Thread-safe, so a test may feed it while a server reads it.
 */
public final class InMemoryTelemetry implements TelemetryQuery, TelemetryTargets {
  private volatile long sampleIntervalMillis;

  private final Map<SeriesId, List<Sample>> series = new HashMap<>();
  private final Map<NodeId, List<Gpu>> reported = new TreeMap<>();
  private final Map<NodeId, Long> lastScrape = new TreeMap<>();
  private final List<TargetStatus> targets = new ArrayList<>();

  /**
   * Adds a sample of {@code metric} on GPU {@code gpu} of {@code node}, taken at {@code atMillis}.
   */
  public synchronized void add(NodeId node, int gpu, String metric, long atMillis, double value) {
    List<Sample> samples =
        series.computeIfAbsent(SeriesId.of(node, gpu, metric), k -> new ArrayList<>());
    Sample sample = new Sample(atMillis, value);
    int at = samples.size();
    while (at > 0 && samples.get(at - 1).timestampMillis() > atMillis) {
      at--;
    }
    samples.add(at, sample);
  }

  /**
   * Makes {@code node} report {@code gpus} in a scrape at {@code atMillis}, replacing what it
   * reported before.
   */
  public synchronized void report(NodeId node, List<Gpu> gpus, long atMillis) {
    reported.put(node, gpus.stream().sorted(Comparator.comparingInt(Gpu::index)).toList());
    lastScrape.put(node, atMillis);
  }

  /**
   * Makes the node named {@code node} report GPUs 0 to {@code count - 1} of {@code model}, with
   * UUIDs {@code GPU-<node>-<index>}, in a scrape at {@code atMillis}.
   */
  public void report(String node, int count, String model, long atMillis) {
    report(
        NodeId.of(node),
        IntStream.range(0, count)
            .mapToObj(i -> new Gpu(i, "GPU-" + node + "-" + i, model))
            .toList(),
        atMillis);
  }

  /** Records a scrape of {@code node} at {@code atMillis} that reported the same GPUs as before. */
  public synchronized void scrapedAt(NodeId node, long atMillis) {
    lastScrape.put(node, atMillis);
  }

  /**
   * Records a scrape of the node named {@code node} at {@code atMillis}; see {@link
   * #scrapedAt(NodeId, long)}.
   */
  public void scrapedAt(String node, long atMillis) {
    scrapedAt(NodeId.of(node), atMillis);
  }

  /** Adds the status of one scrape target, as {@link #targets()} will return it. */
  public synchronized void target(TargetStatus status) {
    targets.add(status);
  }

  /** Returns the nodes that reported in a scrape, sorted. */
  @Override
  public synchronized Set<NodeId> nodes() {
    return Collections.unmodifiableSet(new TreeSet<>(reported.keySet()));
  }

  @Override
  public synchronized List<Gpu> reportedGpus(NodeId node) {
    return reported.getOrDefault(node, List.of());
  }

  @Override
  public synchronized OptionalLong lastScrapeMillis(NodeId node) {
    Long at = lastScrape.get(node);
    return at == null ? OptionalLong.empty() : OptionalLong.of(at);
  }

  @Override
  public synchronized Set<String> metrics(NodeId node) {
    Set<String> names = new TreeSet<>();
    series.keySet().stream().filter(s -> s.node().equals(node)).forEach(s -> names.add(s.metric()));
    return Collections.unmodifiableSet(names);
  }

  @Override
  public synchronized SampleWindow window(SeriesId id, long fromMillis) {
    List<Sample> samples = series.getOrDefault(id, List.of());
    int from = firstAtOrAfter(samples, fromMillis);
    int size = samples.size() - from;
    long[] t = new long[size];
    double[] v = new double[size];
    for (int i = 0; i < size; i++) {
      Sample s = samples.get(from + i);
      t[i] = s.timestampMillis();
      v[i] = s.value();
    }
    return SampleWindow.wrap(t, v, size);
  }

  @Override
  public synchronized Sample latest(SeriesId id) {
    List<Sample> samples = series.getOrDefault(id, List.of());
    return samples.isEmpty() ? null : samples.get(samples.size() - 1);
  }

  @Override
  public synchronized List<MinuteRollup> rollup(SeriesId id, long fromMillis) {
    return WindowRollups.closedMinutes(window(id, fromMillis));
  }

  /**
   * Sets the sample interval this telemetry reports, as telemetry does while it sheds load (0, the
   * default, says nothing).
   */
  public void sampleInterval(long millis) {
    sampleIntervalMillis = millis;
  }

  @Override
  public long sampleIntervalMillis() {
    return sampleIntervalMillis;
  }

  @Override
  public synchronized List<TargetStatus> targets() {
    return targets.stream().sorted(Comparator.comparing(s -> s.target().url())).toList();
  }

  /** Forgets the node's samples and scrapes, as telemetry does; never refuses. */
  @Override
  public synchronized boolean forget(NodeId node) {
    boolean known = reported.remove(node) != null | lastScrape.remove(node) != null;
    return series.keySet().removeIf(s -> s.node().equals(node)) || known;
  }

  private static int firstAtOrAfter(List<Sample> samples, long fromMillis) {
    int low = 0;
    int high = samples.size();
    while (low < high) {
      int mid = (low + high) >>> 1;
      if (samples.get(mid).timestampMillis() < fromMillis) {
        low = mid + 1;
      } else {
        high = mid;
      }
    }
    return low;
  }
}
