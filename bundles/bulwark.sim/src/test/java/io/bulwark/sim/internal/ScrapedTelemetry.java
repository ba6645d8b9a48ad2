package io.bulwark.sim.internal;

import io.bulwark.api.fleet.Gpu;
import io.bulwark.api.fleet.Node;
import io.bulwark.api.fleet.NodeId;
import io.bulwark.api.telemetry.DcgmField;
import io.bulwark.api.telemetry.MinuteRollup;
import io.bulwark.api.telemetry.Sample;
import io.bulwark.api.telemetry.SampleWindow;
import io.bulwark.api.telemetry.SeriesId;
import io.bulwark.api.telemetry.TelemetryQuery;
import io.bulwark.testing.WindowRollups;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What telemetry would hold after scraping the simulated pages: each page is read as a scraper
 * reads dcgm-exporter's text (the GPU index, UUID and model from the labels, the clock-throttle
 * alias filed under the clock-event name), its samples kept in primitive arrays so a whole fleet
 * fits in little memory, with the GPUs each node last reported and an inventory that, like the real
 * one, never forgets a GPU. For tests that run the real detectors over the simulator.
 */
final class ScrapedTelemetry implements TelemetryQuery {
  private final Set<String> asked = java.util.concurrent.ConcurrentHashMap.newKeySet();

  private final int capacity;
  private final Map<NodeId, Map<String, Series[]>> series = new TreeMap<>();
  private final Map<NodeId, List<Gpu>> reported = new TreeMap<>();
  private final Map<NodeId, Long> lastScrape = new HashMap<>();
  private final Map<NodeId, Map<Integer, Gpu>> inventory = new TreeMap<>();
  private final Map<NodeId, Instant> firstSeen = new HashMap<>();

  /**
   * @param capacity the most samples a series will get
   */
  ScrapedTelemetry(int capacity) {
    this.capacity = capacity;
  }

  /** Files the samples of {@code page}, scraped from {@code node} at {@code atMillis}. */
  void scraped(NodeId node, String page, long atMillis) {
    Map<String, Series[]> metrics = series.computeIfAbsent(node, n -> new HashMap<>());
    Map<Integer, Gpu> gpus = new TreeMap<>();
    int at = 0;
    while (at < page.length()) {
      int end = page.indexOf('\n', at);
      if (page.charAt(at) != '#') {
        int brace = page.indexOf('{', at);
        int close = page.indexOf('}', brace);
        String name = page.substring(at, brace);
        if (name.equals(DcgmField.CLOCK_THROTTLE_REASONS)) {
          name = DcgmField.CLOCKS_EVENT_REASONS;
        }
        int gpu = Integer.parseInt(label(page, brace, close, "gpu"));
        double value = Double.parseDouble(page.substring(close + 2, end));
        gpus.computeIfAbsent(
            gpu,
            g ->
                new Gpu(
                    g, label(page, brace, close, "UUID"), label(page, brace, close, "modelName")));
        Series[] byGpu = metrics.computeIfAbsent(name, n -> new Series[64]);
        if (byGpu[gpu] == null) {
          byGpu[gpu] = new Series(capacity);
        }
        byGpu[gpu].add(atMillis, value);
      }
      at = end + 1;
    }
    reported.put(node, List.copyOf(gpus.values()));
    lastScrape.put(node, atMillis);
    firstSeen.putIfAbsent(node, Instant.ofEpochMilli(atMillis));
    inventory.computeIfAbsent(node, n -> new TreeMap<>()).putAll(gpus);
  }

  /** Returns the inventory: every node scraped, with every GPU it ever reported, deployed. */
  List<Node> inventory(long nowMillis) {
    List<Node> nodes = new ArrayList<>();
    inventory.forEach(
        (id, gpus) ->
            nodes.add(
                new Node(
                    id,
                    List.copyOf(gpus.values()),
                    firstSeen.get(id),
                    Instant.ofEpochMilli(nowMillis))));
    return nodes;
  }

  @Override
  public Set<NodeId> nodes() {
    return new TreeSet<>(reported.keySet());
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
    return new TreeSet<>(series.getOrDefault(node, Map.of()).keySet());
  }

  /** Returns every metric a reader asked for a window, latest sample or roll-up of. */
  Set<String> asked() {
    return new TreeSet<>(asked);
  }

  @Override
  public SampleWindow window(SeriesId id, long fromMillis) {
    asked.add(id.metric());
    Series s = find(id);
    return s == null ? SampleWindow.empty() : s.from(fromMillis);
  }

  @Override
  public Sample latest(SeriesId id) {
    asked.add(id.metric());
    Series s = find(id);
    return s == null || s.size == 0 ? null : new Sample(s.times[s.size - 1], s.values[s.size - 1]);
  }

  @Override
  public List<MinuteRollup> rollup(SeriesId id, long fromMillis) {
    return WindowRollups.closedMinutes(window(id, fromMillis));
  }

  private Series find(SeriesId id) {
    Series[] byGpu = series.getOrDefault(id.node(), Map.of()).get(id.metric());
    return byGpu == null || id.gpu() < 0 || id.gpu() >= byGpu.length ? null : byGpu[id.gpu()];
  }

  private static String label(String page, int from, int to, String name) {
    int start = page.indexOf(name + "=\"", from);
    if (start < 0 || start > to) {
      return "";
    }
    start += name.length() + 2;
    return page.substring(start, page.indexOf('"', start));
  }

  private static final class Series {
    private final long[] times;
    private final double[] values;
    private int size;

    Series(int capacity) {
      times = new long[capacity];
      values = new double[capacity];
    }

    void add(long at, double value) {
      times[size] = at;
      values[size] = value;
      size++;
    }

    SampleWindow from(long fromMillis) {
      int first = Arrays.binarySearch(times, 0, size, fromMillis);
      if (first < 0) {
        first = -first - 1;
      } else {
        while (first > 0 && times[first - 1] == fromMillis) {
          first--;
        }
      }
      int n = size - first;
      return SampleWindow.wrap(
          Arrays.copyOfRange(times, first, size), Arrays.copyOfRange(values, first, size), n);
    }
  }
}
