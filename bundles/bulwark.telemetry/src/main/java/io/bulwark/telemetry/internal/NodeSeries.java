package io.bulwark.telemetry.internal;

import io.bulwark.api.fleet.Gpu;
import io.bulwark.api.fleet.NodeId;
import io.bulwark.api.telemetry.SeriesId;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Everything telemetry keeps about one node: a {@link SeriesRing} per metric and GPU (slot 0 holds
 * the node-level series), the GPUs its latest successful scrape reported, and when that was.
 * Thread-safe: one scrape writes while others read; a metric's slots grow copy-on-write.
 */
final class NodeSeries {
  private final NodeId id;
  private final int capacity;
  private final int rollupMinutes;
  private final SeriesBudget budget;
  private final Map<String, MetricSlots> metrics = new ConcurrentHashMap<>();
  private final AtomicInteger series = new AtomicInteger();
  private volatile List<Gpu> reportedGpus = List.of();
  private volatile long lastScrapeMillis = Long.MIN_VALUE;
  private volatile boolean live;

  NodeSeries(NodeId id, int capacity, int rollupMinutes) {
    this(id, capacity, rollupMinutes, SeriesBudget.UNLIMITED);
  }

  NodeSeries(NodeId id, int capacity, int rollupMinutes, SeriesBudget budget) {
    this.id = id;
    this.budget = budget;
    this.capacity = capacity;
    this.rollupMinutes = rollupMinutes;
  }

  NodeId id() {
    return id;
  }

  /**
   * Returns the ring of {@code metric} on GPU {@code gpu} (or {@link SeriesId#NODE_LEVEL}),
   * creating it, or null if it would be new and the store's series budget is spent.
   */
  SeriesRing ringForWriting(String metric, int gpu) {
    MetricSlots slots = metrics.get(metric);
    if (slots == null) {
      slots = metrics.computeIfAbsent(metric, m -> new MetricSlots());
    }
    SeriesRing ring = slots.existing(gpu + 1);
    return ring != null ? ring : slots.create(gpu + 1, this);
  }

  /** Returns how many series the node holds. */
  int seriesCount() {
    return series.get();
  }

  /** Gives the node's series back to the budget (the node is being forgotten). */
  void release() {
    budget.release(series.getAndSet(0));
  }

  /**
   * Marks the node as scraped in this run, as opposed to known only from roll-ups read back from
   * files.
   */
  void markLive() {
    if (!live) {
      live = true;
    }
  }

  boolean live() {
    return live;
  }

  /** Calls {@code visitor} with every series of the node, in no particular order. */
  void forEachSeries(SeriesStore.SeriesVisitor visitor) {
    metrics.forEach(
        (metric, slots) -> {
          SeriesRing[] rings = slots.rings;
          for (int slot = 0; slot < rings.length; slot++) {
            if (rings[slot] != null) {
              visitor.visit(id, slot - 1, metric, rings[slot]);
            }
          }
        });
  }

  /** Returns the ring of {@code metric} on GPU {@code gpu}, or null if there is none. */
  SeriesRing ring(String metric, int gpu) {
    MetricSlots slots = metrics.get(metric);
    return slots == null ? null : slots.existing(gpu + 1);
  }

  /** Returns the names of the metrics that hold at least one sample, sorted. */
  SortedSet<String> metricNames() {
    TreeSet<String> names = new TreeSet<>();
    metrics.forEach(
        (name, slots) -> {
          if (slots.hasSamples()) {
            names.add(name);
          }
        });
    return names;
  }

  /** Records a successful scrape at {@code scrapeMillis} that reported {@code gpus}. */
  void recordScrape(Collection<Gpu> gpus, long scrapeMillis) {
    markLive();
    reportedGpus = gpus.stream().sorted(Comparator.comparingInt(Gpu::index)).toList();
    lastScrapeMillis = Math.max(lastScrapeMillis, scrapeMillis);
  }

  List<Gpu> reportedGpus() {
    return reportedGpus;
  }

  OptionalLong lastScrapeMillis() {
    long last = lastScrapeMillis;
    return last == Long.MIN_VALUE ? OptionalLong.empty() : OptionalLong.of(last);
  }

  /**
   * The rings of one metric, indexed by GPU index + 1; the array is replaced, never changed in
   * place.
   */
  private static final class MetricSlots {
    private volatile SeriesRing[] rings = new SeriesRing[0];

    SeriesRing existing(int slot) {
      SeriesRing[] current = rings;
      return slot < current.length ? current[slot] : null;
    }

    private synchronized SeriesRing create(int slot, NodeSeries node) {
      SeriesRing[] current = rings;
      if (slot < current.length && current[slot] != null) {
        return current[slot];
      }
      if (!node.budget.reserve()) {
        return null;
      }
      node.series.incrementAndGet();
      SeriesRing[] grown = Arrays.copyOf(current, Math.max(current.length, slot + 1));
      grown[slot] = new SeriesRing(node.capacity, node.rollupMinutes);
      rings = grown;
      return grown[slot];
    }

    boolean hasSamples() {
      for (SeriesRing ring : rings) {
        if (ring != null && ring.size() > 0) {
          return true;
        }
      }
      return false;
    }
  }
}
