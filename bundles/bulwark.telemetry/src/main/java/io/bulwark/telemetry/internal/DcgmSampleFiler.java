package io.bulwark.telemetry.internal;

import io.bulwark.api.fleet.Gpu;
import io.bulwark.api.fleet.NodeId;
import io.bulwark.api.telemetry.DcgmField;
import io.bulwark.api.telemetry.ScrapeTarget;
import io.bulwark.api.telemetry.SeriesId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Files the samples of one scraped dcgm-exporter page into the {@link SeriesStore}: every {@code
 * DCGM_FI_*} metric (the older {@code DCGM_FI_DEV_CLOCK_THROTTLE_REASONS} under {@code
 * DCGM_FI_DEV_CLOCKS_EVENT_REASONS}), per node ({@link NodeNaming}) and GPU (the {@code gpu} label;
 * none means node-level), stamped with the scrape time unless the page gives one. It also collects
 * the GPUs the page reported, with UUID and model, and records them when the page is done. Other
 * metrics are ignored. One instance per target, used by one scrape at a time.
 */
public final class DcgmSampleFiler implements ExpositionSink {
  static final String DCGM_PREFIX = "DCGM_FI_";
  static final String GPU_LABEL = "gpu";
  static final String UUID_LABEL = "UUID";
  static final String MODEL_LABEL = "modelName";

  /** The highest GPU index accepted; a larger {@code gpu} label is taken for a broken one. */
  static final int MAX_GPU_INDEX = 1023;

  private static final int MAX_REMEMBERED_HOSTNAMES = 256;

  private final SeriesStore store;
  private final ScrapeTarget target;
  private final NodeId targetNode;
  private final Map<String, NodeId> hostnames = new HashMap<>();
  private final List<PageNode> pageNodes = new ArrayList<>(2);
  private NodeId previousNode;
  private long scrapeMillis;
  private String lastHostname;
  private PageNode current;
  private int filed;
  private int outOfOrder;
  private int badGpuLabel;
  private int ignored;

  /** Creates the filer of {@code target}'s pages. */
  public DcgmSampleFiler(SeriesStore store, ScrapeTarget target) {
    this.store = Objects.requireNonNull(store, "store");
    this.target = Objects.requireNonNull(target, "target");
    this.targetNode = NodeNaming.forTarget(target);
  }

  /** Starts a page scraped at {@code millis} (epoch milliseconds). */
  public void begin(long millis) {
    scrapeMillis = millis;
    pageNodes.clear();
    current = null;
    lastHostname = null;
    filed = 0;
    outOfOrder = 0;
    badGpuLabel = 0;
    ignored = 0;
  }

  @Override
  public void sample(ExpositionLine line) {
    String name = line.name();
    if (!name.startsWith(DCGM_PREFIX)) {
      ignored++;
      return;
    }
    String metric =
        DcgmField.CLOCK_THROTTLE_REASONS.equals(name) ? DcgmField.CLOCKS_EVENT_REASONS : name;
    int gpu = SeriesId.NODE_LEVEL;
    int gpuLabel = line.labelIndex(GPU_LABEL);
    if (gpuLabel >= 0) {
      gpu = line.labelValueAsIndex(gpuLabel);
      if (gpu < 0 || gpu > MAX_GPU_INDEX) {
        badGpuLabel++;
        return;
      }
    }
    PageNode node = pageNode(line);
    if (gpu >= 0) {
      node.noteGpu(gpu, line);
    }
    long timestamp = line.hasTimestamp() ? line.timestampMillis() : scrapeMillis;
    if (node.series.ringForWriting(metric, gpu).append(timestamp, line.value())) {
      filed++;
    } else {
      outOfOrder++;
    }
  }

  /**
   * Ends a page that parsed: records, for every node it filed samples under, the GPUs it reported
   * and the scrape time. A page without DCGM samples refreshes the node this target last reported,
   * if telemetry knows it. Returns the node the page was filed under (the first, if several), or
   * null if none.
   */
  public NodeId finish() {
    if (pageNodes.isEmpty()) {
      NodeId known = previousNode != null ? previousNode : targetNode;
      if (store.existingNode(known) == null) {
        return null;
      }
      store.recordScrape(known, List.of(), scrapeMillis);
      return known;
    }
    for (PageNode node : pageNodes) {
      node.series.recordScrape(node.reportedGpus(), scrapeMillis);
    }
    previousNode = pageNodes.get(0).series.id();
    return previousNode;
  }

  /** Returns how many samples the page filed. */
  public int filed() {
    return filed;
  }

  /**
   * Returns how many DCGM samples were not newer than what their series holds, and were dropped.
   */
  public int outOfOrder() {
    return outOfOrder;
  }

  /**
   * Returns how many DCGM samples had a {@code gpu} label that is not an index, and were dropped.
   */
  public int badGpuLabel() {
    return badGpuLabel;
  }

  /** Returns how many samples were not DCGM metrics. */
  public int ignored() {
    return ignored;
  }

  /** Returns the node of the target's samples without a Hostname label. */
  NodeId targetNode() {
    return targetNode;
  }

  private PageNode pageNode(ExpositionLine line) {
    int hostLabel = line.labelIndex(NodeNaming.HOSTNAME_LABEL);
    String hostname = hostLabel < 0 ? null : line.labelValue(hostLabel);
    if (current != null && Objects.equals(hostname, lastHostname)) {
      return current;
    }
    lastHostname = hostname;
    NodeId id = hostname == null ? targetNode : hostnameNode(hostname);
    for (PageNode node : pageNodes) {
      if (node.series.id().equals(id)) {
        current = node;
        return node;
      }
    }
    current = new PageNode(store.node(id));
    pageNodes.add(current);
    return current;
  }

  private NodeId hostnameNode(String hostname) {
    NodeId id = hostnames.get(hostname);
    if (id == null) {
      if (hostnames.size() >= MAX_REMEMBERED_HOSTNAMES) {
        hostnames.clear();
      }
      id = NodeNaming.forHostname(hostname, target);
      hostnames.put(hostname, id);
    }
    return id;
  }

  /** A node the current page files samples under, and the GPUs the page reported for it. */
  private static final class PageNode {
    final NodeSeries series;
    Gpu[] gpus = new Gpu[8];

    PageNode(NodeSeries series) {
      this.series = series;
    }

    void noteGpu(int index, ExpositionLine line) {
      if (index >= gpus.length) {
        gpus = Arrays.copyOf(gpus, Math.max(index + 1, gpus.length * 2));
      }
      Gpu known = gpus[index];
      if (known == null || (known.uuid().isEmpty() && line.labelIndex(UUID_LABEL) >= 0)) {
        gpus[index] = new Gpu(index, line.labelValue(UUID_LABEL), line.labelValue(MODEL_LABEL));
      }
    }

    List<Gpu> reportedGpus() {
      List<Gpu> reported = new ArrayList<>();
      for (Gpu gpu : gpus) {
        if (gpu != null) {
          reported.add(gpu);
        }
      }
      return reported;
    }
  }
}
