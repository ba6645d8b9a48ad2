package io.bulwark.telemetry.internal;

import io.bulwark.api.fleet.Gpu;
import io.bulwark.api.fleet.NodeId;
import io.bulwark.api.telemetry.DcgmField;
import io.bulwark.api.telemetry.ScrapeTarget;
import io.bulwark.api.telemetry.SeriesId;
import io.bulwark.api.telemetry.TargetStatus;
import io.bulwark.lib.exposition.DcgmBlanks;
import io.bulwark.lib.exposition.DcgmNames;
import io.bulwark.lib.exposition.ExpositionLine;
import io.bulwark.lib.exposition.SeriesSink;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Files the samples of one scraped dcgm-exporter page into the {@link SeriesStore}: every {@code
 * DCGM_FI_*} metric (the older {@code DCGM_FI_DEV_CLOCK_THROTTLE_REASONS} under {@code
 * DCGM_FI_DEV_CLOCKS_EVENT_REASONS}, and DCGM 4.x's names under the DCGM 3.x names Bulwark reads,
 * in their units: {@link DcgmNames}), per node ({@link NodeNaming}) and GPU (the {@code gpu} label;
 * none means node-level), stamped with the scrape time unless the page gives one. It also collects
 * the GPUs the page reported, with UUID and model, and records them when the page is done. Other
 * metrics are ignored. A line the parser recognises as repeating the previous page's comes back
 * with the handle this filer gave its series: the ring, node and GPU found for it then, so that a
 * steady page is filed without looking anything up. One instance per target, used by one scrape at
 * a time.
 *
 * <p>A page's samples are staged as it is read and written to their series only when the page is
 * done ({@link #finish()}): a page the caller refuses ({@link #abort()}, e.g. for a malformed line,
 * as Prometheus refuses such a page) leaves no sample behind.
 *
 * <p>What a target may add is bounded by its {@link TargetLimits} and by the store's {@link
 * SeriesBudget}: a sample of a node or series beyond them is dropped (and not remembered, so that
 * it is tried again once there is room), and {@link #limitProblem()} says what was dropped and why.
 */
final class DcgmSampleFiler implements SeriesSink {
  static final String DCGM_PREFIX = "DCGM_FI_";
  static final String GPU_LABEL = "gpu";
  static final String UUID_LABEL = "UUID";
  static final String MODEL_LABEL = "modelName";

  /** The highest GPU index accepted; a larger {@code gpu} label is taken for a broken one. */
  static final int MAX_GPU_INDEX = 1023;

  private static final int MAX_REMEMBERED_HOSTNAMES = 256;
  private static final int MAX_REMEMBERED_NODES = 256;

  /** The handle of a line that is not a DCGM metric. */
  private static final Object IGNORED = new Object();

  /** The handle of a DCGM line whose {@code gpu} label is not an index. */
  private static final Object BAD_GPU_LABEL = new Object();

  private final SeriesStore store;
  private final ScrapeTarget target;
  private final TargetLimits limits;
  private final NodeId targetNode;
  private final Set<NodeId> nodesFiled = new HashSet<>();
  private int seriesCreated;
  private int newThisPage;
  private int droppedForNodes;
  private int droppedForTargetSeries;
  private int droppedForNewSeries;
  private int droppedForBudget;
  private String firstDropped;
  private NodeId refusedNode;
  private final Map<String, NodeId> hostnames = new HashMap<>();
  private final List<PageNode> pageNodes = new ArrayList<>(2);
  private final Map<NodeSeries, PageNode> knownNodes = new IdentityHashMap<>();
  private int page;
  private NodeId previousNode;
  private long scrapeMillis;
  private String lastHostname;
  private PageNode current;
  private boolean currentKnown;
  private int filed;
  private int outOfOrder;
  private int badGpuLabel;
  private int ignored;
  private int blanks;
  private String firstBlank;
  private final StagedSamples staged = new StagedSamples();
  private boolean sawDcgm3Names;
  private boolean sawDcgm4Names;

  /** Creates the filer of {@code target}'s pages, with the standard limits. */
  public DcgmSampleFiler(SeriesStore store, ScrapeTarget target) {
    this(store, target, TargetLimits.STANDARD);
  }

  /** Creates the filer of {@code target}'s pages within {@code limits}. */
  public DcgmSampleFiler(SeriesStore store, ScrapeTarget target, TargetLimits limits) {
    this.store = Objects.requireNonNull(store, "store");
    this.target = Objects.requireNonNull(target, "target");
    this.limits = Objects.requireNonNull(limits, "limits");
    this.targetNode = NodeNaming.forTarget(target);
  }

  /** Starts a page scraped at {@code millis} (epoch milliseconds). */
  public void begin(long millis) {
    scrapeMillis = millis;
    page++;
    pageNodes.clear();
    current = null;
    currentKnown = false;
    lastHostname = null;
    filed = 0;
    outOfOrder = 0;
    badGpuLabel = 0;
    ignored = 0;
    blanks = 0;
    firstBlank = null;
    staged.clear();
    sawDcgm3Names = false;
    sawDcgm4Names = false;
    newThisPage = 0;
    droppedForNodes = 0;
    droppedForTargetSeries = 0;
    droppedForNewSeries = 0;
    droppedForBudget = 0;
    firstDropped = null;
  }

  @Override
  public Object file(ExpositionLine line) {
    String name = line.name();
    if (!name.startsWith(DCGM_PREFIX)) {
      ignored++;
      return IGNORED;
    }
    String metric = name;
    DcgmNames.Alias alias = DcgmNames.dcgm4(name);
    int generation = 0;
    if (alias != null) {
      metric = alias.bulwarkName();
      alias = alias.sameUnit() ? null : alias;
      generation = 4;
    } else if (DcgmField.CLOCK_THROTTLE_REASONS.equals(name)) {
      metric = DcgmField.CLOCKS_EVENT_REASONS;
    } else if (DcgmNames.isDcgm3Only(name)) {
      generation = 3;
    }
    noteGeneration(generation);
    int gpu = SeriesId.NODE_LEVEL;
    int gpuLabel = line.labelIndex(GPU_LABEL);
    if (gpuLabel >= 0) {
      gpu = line.labelValueAsIndex(gpuLabel);
      if (gpu < 0 || gpu > MAX_GPU_INDEX) {
        badGpuLabel++;
        return BAD_GPU_LABEL;
      }
    }
    DcgmBlanks.Kind kind = DcgmBlanks.kindOf(metric);
    if (kind.isBlank(line.value())) {
      // Not remembered: the line is read afresh next time, and filed once it carries a reading.
      blank(kind, metric, gpu, line.value());
      return null;
    }
    PageNode node = pageNode(line);
    if (node == null) {
      dropped(line, metric, gpu);
      droppedForNodes++;
      return null;
    }
    SeriesRing ring = ring(node, line, metric, gpu);
    if (ring == null) {
      return null;
    }
    FiledSeries series;
    if (gpu >= 0) {
      String uuid = labelOrNull(line, UUID_LABEL);
      series =
          new FiledSeries(
              node,
              ring,
              gpu,
              new Gpu(gpu, uuid, labelOrNull(line, MODEL_LABEL)),
              uuid != null,
              kind,
              metric,
              alias,
              generation);
    } else {
      series = new FiledSeries(node, ring, gpu, null, false, kind, metric, alias, generation);
    }
    long timestamp = line.hasTimestamp() ? line.timestampMillis() : scrapeMillis;
    append(series, timestamp, alias == null ? line.value() : alias.toBulwarkUnit(line.value()));
    return series;
  }

  /**
   * Returns the ring of {@code metric} on {@code gpu} of {@code node}, creating it if the limits
   * allow; null (the sample is dropped and counted) if they do not.
   */
  private SeriesRing ring(PageNode node, ExpositionLine line, String metric, int gpu) {
    SeriesRing ring = node.series.ring(metric, gpu);
    if (ring != null) {
      return ring;
    }
    if (seriesCreated >= limits.maxSeriesPerTarget()) {
      dropped(line, metric, gpu);
      droppedForTargetSeries++;
      return null;
    }
    if (newThisPage >= limits.maxNewSeriesPerScrape()) {
      dropped(line, metric, gpu);
      droppedForNewSeries++;
      return null;
    }
    ring = node.series.ringForWriting(metric, gpu);
    if (ring == null) {
      dropped(line, metric, gpu);
      droppedForBudget++;
      return null;
    }
    seriesCreated++;
    newThisPage++;
    return ring;
  }

  private void dropped(ExpositionLine line, String metric, int gpu) {
    if (firstDropped == null) {
      String host = NodeNaming.hostname(line);
      firstDropped =
          metric
              + "{"
              + (host == null ? "" : "hostname=\"" + host + "\",")
              + (gpu >= 0 ? "gpu=\"" + gpu + "\"" : "")
              + "}";
    }
  }

  private void blank(DcgmBlanks.Kind kind, String metric, int gpu, double value) {
    if (blanks++ == 0) {
      firstBlank = metric + (gpu >= 0 ? "{gpu=\"" + gpu + "\"}: " : ": ") + kind.describe(value);
    }
  }

  /** Returns the value of {@code label}, or null if the line has none or a DCGM string blank. */
  private static String labelOrNull(ExpositionLine line, String label) {
    String value = line.labelValue(label);
    return value == null || DcgmBlanks.isBlank(value) ? null : value;
  }

  @Override
  public void repeat(Object handle, double value, boolean hasTimestamp, long timestampMillis) {
    if (handle instanceof FiledSeries series) {
      noteGeneration(series.generation);
      if (series.kind.isBlank(value)) {
        blank(series.kind, series.metric, series.gpu, value);
        return;
      }
      append(
          series,
          hasTimestamp ? timestampMillis : scrapeMillis,
          series.conversion == null ? value : series.conversion.toBulwarkUnit(value));
    } else if (handle == IGNORED) {
      ignored++;
    } else {
      badGpuLabel++;
    }
  }

  private void append(FiledSeries series, long timestamp, double value) {
    series.node.touch(page, pageNodes);
    if (series.gpu >= 0) {
      series.node.noteGpu(series.gpu, series.gpuRecord, series.hasUuidLabel);
    }
    staged.add(series.ring, timestamp, value);
  }

  /**
   * Drops the page begun last: none of its samples is filed, no node records a scrape; the page is
   * refused.
   */
  public void abort() {
    staged.clear();
    pageNodes.clear();
  }

  /**
   * Ends a page that parsed: records, for every node it filed samples under, the GPUs it reported
   * and the scrape time. A page without DCGM samples refreshes the node this target last reported,
   * if telemetry knows it. Returns the node the page was filed under (the first, if several), or
   * null if none.
   */
  public NodeId finish() {
    filed += staged.commit();
    outOfOrder += staged.outOfOrder();
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
    if (knownNodes.size() > MAX_REMEMBERED_NODES) {
      // Only nodes of this page or the one before can be behind a line the parser remembers.
      knownNodes.values().removeIf(node -> node.page < page - 1);
    }
    return previousNode;
  }

  /** Returns how many samples the page dropped for a limit. */
  public int droppedForLimits() {
    return droppedForNodes + droppedForTargetSeries + droppedForNewSeries + droppedForBudget;
  }

  /**
   * Returns what the page dropped for a limit and what to do about it, in an operator's words, or
   * null if it dropped nothing.
   */
  public String limitProblem() {
    int dropped = droppedForLimits();
    if (dropped == 0) {
      return null;
    }
    StringBuilder why = new StringBuilder();
    if (droppedForNodes > 0) {
      why.append(
          String.format(
              Locale.ROOT,
              "%,d for nodes beyond the %,d this target may report (maxNodesPerTarget; it"
                  + " reported %s)",
              droppedForNodes,
              limits.maxNodesPerTarget(),
              refusedNode == null ? "more Hostname values" : "Hostname " + refusedNode.value()));
    }
    if (droppedForTargetSeries > 0) {
      append(
          why,
          String.format(
              Locale.ROOT,
              "%,d for series beyond the %,d this target may create (maxSeriesPerTarget)",
              droppedForTargetSeries,
              limits.maxSeriesPerTarget()));
    }
    if (droppedForNewSeries > 0) {
      append(
          why,
          String.format(
              Locale.ROOT,
              "%,d for new series beyond the %,d one scrape may create"
                  + " (maxNewSeriesPerScrape); they are taken as room allows",
              droppedForNewSeries,
              limits.maxNewSeriesPerScrape()));
    }
    if (droppedForBudget > 0) {
      append(
          why,
          String.format(
              Locale.ROOT,
              "%,d because telemetry holds %,d series, all this heap allows (maxSeries)",
              droppedForBudget,
              store.budget().used()));
    }
    return String.format(
        Locale.ROOT,
        "dropped %,d sample(s), e.g. %s: %s. An exporter that invents nodes or metric names"
            + " (ever-new Hostname values or DCGM_FI_* names) is misconfigured or broken: fix it;"
            + " if the fleet really is that large, raise the limit (PID io.bulwark.telemetry)%s",
        dropped,
        firstDropped,
        why,
        droppedForBudget > 0 ? " or the heap (-Xmx), and remove nodes you no longer have" : "");
  }

  private static void append(StringBuilder why, String reason) {
    if (why.length() > 0) {
      why.append("; ");
    }
    why.append(reason);
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

  private void noteGeneration(int generation) {
    if (generation == 4) {
      sawDcgm4Names = true;
    } else if (generation == 3) {
      sawDcgm3Names = true;
    }
  }

  /**
   * Returns the generation of DCGM names the page used ({@link TargetStatus#NAMING_DCGM3}, {@link
   * TargetStatus#NAMING_DCGM4} or {@link TargetStatus#NAMING_MIXED}), or empty if it used only
   * names both generations share.
   */
  public String naming() {
    if (sawDcgm4Names) {
      return sawDcgm3Names ? TargetStatus.NAMING_MIXED : TargetStatus.NAMING_DCGM4;
    }
    return sawDcgm3Names ? TargetStatus.NAMING_DCGM3 : "";
  }

  /** Returns how many DCGM samples of the page were blank values, and were not filed. */
  public int blanks() {
    return blanks;
  }

  /** Returns the first blank value of the page (field, GPU and value), or null if none. */
  public String firstBlank() {
    return firstBlank;
  }

  /**
   * Returns what the page carried that was not filed (blank values, samples out of order,
   * unreadable GPU labels), in an operator's words, or empty if nothing; samples dropped for a
   * limit are told by {@link #limitProblem()}.
   */
  public String skipped() {
    if (blanks == 0 && outOfOrder == 0 && badGpuLabel == 0) {
      return "";
    }
    StringBuilder text = new StringBuilder();
    if (blanks > 0) {
      text.append(
          String.format(
              Locale.ROOT,
              "%,d blank value%s (DCGM could not read the field; e.g. %s)",
              blanks,
              blanks == 1 ? "" : "s",
              firstBlank));
    }
    if (outOfOrder > 0) {
      append(
          text,
          String.format(
              Locale.ROOT,
              "%,d sample%s not newer than the one before (the exporter's timestamps went back)",
              outOfOrder,
              outOfOrder == 1 ? "" : "s"));
    }
    if (badGpuLabel > 0) {
      append(
          text,
          String.format(
              Locale.ROOT,
              "%,d sample%s with a gpu label that is not an index from 0 to %d",
              badGpuLabel,
              badGpuLabel == 1 ? "" : "s",
              MAX_GPU_INDEX));
    }
    return text.toString();
  }

  /** Returns how many samples were not DCGM metrics. */
  public int ignored() {
    return ignored;
  }

  /** Returns the node of the target's samples without a Hostname label. */
  NodeId targetNode() {
    return targetNode;
  }

  /**
   * Returns the node of the line's samples, or null if it would be a node beyond {@link
   * TargetLimits#maxNodesPerTarget()}.
   */
  private PageNode pageNode(ExpositionLine line) {
    String hostname = NodeNaming.hostname(line);
    if (currentKnown && Objects.equals(hostname, lastHostname)) {
      return current;
    }
    lastHostname = hostname;
    currentKnown = true;
    NodeId id = hostname == null ? targetNode : hostnameNode(hostname);
    if (!nodesFiled.contains(id)) {
      if (nodesFiled.size() >= limits.maxNodesPerTarget()) {
        refusedNode = id;
        current = null;
        return null;
      }
      nodesFiled.add(id);
    }
    NodeSeries series = store.node(id);
    current = knownNodes.computeIfAbsent(series, PageNode::new);
    return current;
  }

  /** Forgets that this target filed samples under {@code node} (the node was forgotten). */
  void forgotten(NodeId node) {
    nodesFiled.remove(node);
    knownNodes.keySet().removeIf(series -> series.id().equals(node));
    currentKnown = false;
    current = null;
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

  /** A series of a page, as the handle the parser recalls its line by. */
  private record FiledSeries(
      PageNode node,
      SeriesRing ring,
      int gpu,
      Gpu gpuRecord,
      boolean hasUuidLabel,
      DcgmBlanks.Kind kind,
      String metric,
      DcgmNames.Alias conversion,
      int generation) {}

  /**
   * A node the target's pages file samples under, and the GPUs the current page reported for it.
   */
  private static final class PageNode {
    final NodeSeries series;
    Gpu[] gpus = new Gpu[8];
    int page = -1;

    PageNode(NodeSeries series) {
      this.series = series;
    }

    /** Enters the node in the list of page {@code current}'s nodes, once. */
    void touch(int current, List<PageNode> pageNodes) {
      if (page != current) {
        page = current;
        Arrays.fill(gpus, null);
        pageNodes.add(this);
      }
    }

    void noteGpu(int index, Gpu gpu, boolean hasUuidLabel) {
      if (index >= gpus.length) {
        gpus = Arrays.copyOf(gpus, Math.max(index + 1, gpus.length * 2));
      }
      Gpu known = gpus[index];
      if (known == null || (known.uuid().isEmpty() && hasUuidLabel)) {
        gpus[index] = gpu;
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
