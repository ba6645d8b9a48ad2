package io.bulwark.web.internal;

import io.bulwark.api.fleet.FleetRepository;
import io.bulwark.api.fleet.Gpu;
import io.bulwark.api.fleet.Node;
import io.bulwark.api.fleet.NodeId;
import io.bulwark.api.health.Finding;
import io.bulwark.api.health.FindingQuery;
import io.bulwark.api.health.GpuCapacity;
import io.bulwark.api.health.HealthService;
import io.bulwark.api.telemetry.DcgmField;
import io.bulwark.api.telemetry.Rollup;
import io.bulwark.api.telemetry.SampleWindow;
import io.bulwark.api.telemetry.SeriesId;
import io.bulwark.api.telemetry.TargetStatus;
import io.bulwark.api.telemetry.TelemetryQuery;
import io.bulwark.api.telemetry.TelemetryTargets;
import io.bulwark.web.api.ApiProblem;
import io.bulwark.web.api.ApiRequest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import java.time.Clock;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * {@code GET /api/v1/nodes} and {@code GET /api/v1/nodes/{node}}: the nodes of the inventory with
 * their GPUs' health, and one node in detail with its recent temperature, SM clock and power per
 * GPU and its findings. Runs on a worker thread (the inventory is a store).
 */
final class NodesResource {
  /** The series the node page charts, per GPU. */
  static final List<String> CHART_METRICS = DcgmField.NODE_CHARTS;

  /** At most this many points per series; longer windows are averaged into buckets. */
  static final int MAX_POINTS = 600;

  private static final int OPEN_FINDINGS_LIMIT = 100_000;
  private static final int NODE_FINDINGS_LIMIT = 500;
  private static final int MAX_MINUTES = 7 * 24 * 60;
  private static final int RAW_MINUTES = 10;

  private final HealthService health;
  private final FleetRepository fleet;
  private final TelemetryQuery telemetry;
  private final TelemetryTargets targets;
  private final Clock clock;

  NodesResource(
      HealthService health,
      FleetRepository fleet,
      TelemetryQuery telemetry,
      TelemetryTargets targets,
      Clock clock) {
    this.health = health;
    this.targets = targets;
    this.fleet = fleet;
    this.telemetry = telemetry;
    this.clock = clock;
  }

  void list(RoutingContext ctx) {
    Map<NodeId, List<Finding>> open =
        health.findings(FindingQuery.open().withLimit(OPEN_FINDINGS_LIMIT)).stream()
            .collect(Collectors.groupingBy(Finding::node));
    Map<String, GpuCapacity> capacity = capacityByGpu();
    Map<String, Map<String, String>> labels = labelsByNode(targets);
    JsonArray nodes = new JsonArray();
    for (Node node : fleet.nodes()) {
      JsonObject summary = summary(node, open.getOrDefault(node.id(), List.of()));
      summary.put(
          "labels",
          new JsonObject(new TreeMap<>(labels.getOrDefault(node.id().value(), Map.of()))));
      summary.put(
          "gpus", new JsonArray(gpus(node, open.getOrDefault(node.id(), List.of()), capacity)));
      nodes.add(summary);
    }
    ApiRequest.json(ctx, new JsonObject().put("nodes", nodes).put("count", nodes.size()));
  }

  void detail(RoutingContext ctx) {
    NodeId id = QueryParameters.pathNode(ctx, "node");
    int minutes = QueryParameters.integer(ctx, "minutes", 10, 1, MAX_MINUTES);
    Node node =
        fleet
            .node(id)
            .orElseThrow(
                () -> ApiProblem.notFound("No node named '" + id + "' is in the inventory."));
    List<Finding> open =
        health.findings(FindingQuery.open().withNode(id).withLimit(OPEN_FINDINGS_LIMIT));
    List<Finding> recent =
        health.findings(FindingQuery.all().withNode(id).withLimit(NODE_FINDINGS_LIMIT));
    long to = clock.millis();
    long from = to - minutes * 60_000L;
    Map<Integer, Gpu> reported = reportedByIndex(id);
    List<JsonObject> gpus = gpus(node, open, capacityByGpu());
    long historyFrom = Long.MAX_VALUE;
    Map<SeriesId, List<Rollup>> history =
        minutes > RAW_MINUTES ? telemetry.history(id, Set.copyOf(CHART_METRICS), from) : Map.of();
    long tenMinutesTo = 0;
    for (List<Rollup> spans : history.values()) {
      for (Rollup r : spans) {
        if (r.spanMillis() > 60_000) {
          tenMinutesTo = Math.max(tenMinutesTo, r.endMillis());
        }
      }
    }
    for (JsonObject gpu : gpus) {
      int index = gpu.getInteger("index");
      Gpu known = node.gpu(index).orElseGet(() -> reported.get(index));
      JsonObject charts = new JsonObject();
      for (String metric : CHART_METRICS) {
        SeriesId series = SeriesId.of(id, index, metric);
        SampleWindow raw = telemetry.window(series, from);
        JsonArray points =
            raw.size() > 0 && raw.timestamp(0) <= from + 60_000
                ? points(raw)
                : withHistory(history.getOrDefault(series, List.of()), raw, from, to);
        if (!points.isEmpty()) {
          // Where the data starts: the start of the oldest span drawn, not the end where its
          // point sits.
          List<Rollup> spans = history.getOrDefault(series, List.of());
          long start = points.getJsonArray(0).getLong(0);
          if (!spans.isEmpty() && spans.get(0).startMillis() >= from) {
            start = Math.min(start, spans.get(0).startMillis());
          }
          historyFrom = Math.min(historyFrom, start);
        }
        charts.put(metric, points);
      }
      gpu.put("uuid", known.uuid()).put("model", known.model()).put("telemetry", charts);
    }
    JsonArray findings = new JsonArray();
    recent.forEach(f -> findings.add(ApiJson.finding(f)));
    ApiRequest.json(
        ctx,
        new JsonObject()
            .put("node", summary(node, open))
            .put(
                "window",
                new JsonObject()
                    .put("minutes", minutes)
                    .put("from", from)
                    .put("to", to)
                    .put("dataFrom", historyFrom == Long.MAX_VALUE ? null : historyFrom)
                    .put("tenMinutesTo", tenMinutesTo == 0 ? null : tenMinutesTo)
                    .put("metrics", new JsonArray(CHART_METRICS)))
            .put("gpus", new JsonArray(gpus))
            .put("findings", findings));
  }

  private JsonObject summary(Node node, List<Finding> open) {
    OptionalLong lastScrape = telemetry.lastScrapeMillis(node.id());
    return new JsonObject()
        .put("id", node.id().value())
        .put("gpusInstalled", node.gpus().size())
        .put("gpusReporting", telemetry.reportedGpus(node.id()).size())
        .put("openFindings", open.size())
        .put("worstSeverity", ApiJson.name(GpuHealth.worst(open)))
        .put(
            "lastScrape",
            lastScrape.isPresent() ? Instant.ofEpochMilli(lastScrape.getAsLong()).toString() : null)
        .put("firstSeen", ApiJson.instant(node.firstSeen()))
        .put("lastSeen", ApiJson.instant(node.lastSeen()));
  }

  /**
   * Returns one entry per GPU installed or reported, by index, with its state in the capacity
   * account ({@code state}: healthy, degraded, failed, unknown; what the headline, {@code
   * /api/v1/capacity}, {@code /metrics} and the CLI count) and the colour the grid gives it ({@code
   * health}), which follows from the same state and the same findings: those on the GPU and those
   * on its whole node (a node's critical finding fails all its GPUs in the account, so it colours
   * them all).
   */
  private List<JsonObject> gpus(Node node, List<Finding> open, Map<String, GpuCapacity> capacity) {
    Map<Integer, Gpu> reported = reportedByIndex(node.id());
    TreeMap<Integer, Boolean> indices = new TreeMap<>();
    node.gpus().forEach(g -> indices.put(g.index(), reported.containsKey(g.index())));
    reported.keySet().forEach(i -> indices.put(i, true));
    return indices.entrySet().stream()
        .map(
            e -> {
              int index = e.getKey();
              List<Finding> onGpu =
                  open.stream().filter(f -> f.gpu() == index || f.gpu() < 0).toList();
              GpuCapacity cap = capacity.get(node.id().value() + "/" + index);
              return new JsonObject()
                  .put("index", index)
                  .put("health", GpuHealth.of(cap, e.getValue(), onGpu).label())
                  .put("state", cap == null ? null : cap.state())
                  .put(
                      "limitedBy",
                      cap == null || cap.limitedBy().isEmpty() ? null : cap.limitedBy())
                  .put("reporting", e.getValue())
                  .put("openFindings", onGpu.size())
                  .put(
                      "relativePerformance",
                      cap == null ? null : ApiJson.finite(cap.relativePerformance()));
            })
        .collect(Collectors.toList());
  }

  /**
   * Returns the file_sd labels of the target that reports each node (rack, partition, pool…),
   * without Prometheus' reserved {@code __} labels.
   */
  static Map<String, Map<String, String>> labelsByNode(TelemetryTargets targets) {
    Map<String, Map<String, String>> byNode = new HashMap<>();
    for (TargetStatus t : targets.targets()) {
      if (t.node() == null || t.node().isEmpty()) {
        continue;
      }
      Map<String, String> labels = new TreeMap<>();
      t.target()
          .labels()
          .forEach(
              (k, v) -> {
                if (!k.startsWith("__")) {
                  labels.put(k, v);
                }
              });
      byNode.putIfAbsent(t.node(), labels);
    }
    return byNode;
  }

  private Map<Integer, Gpu> reportedByIndex(NodeId id) {
    Map<Integer, Gpu> byIndex = new HashMap<>();
    telemetry.reportedGpus(id).forEach(g -> byIndex.put(g.index(), g));
    return byIndex;
  }

  private Map<String, GpuCapacity> capacityByGpu() {
    Map<String, GpuCapacity> byGpu = new HashMap<>();
    CapacityResource.current(health, clock)
        .gpus()
        .forEach(g -> byGpu.put(g.node().value() + "/" + g.gpu(), g));
    return byGpu;
  }

  /**
   * Returns the roll-ups before the raw samples, then the raw samples, as [[epochMillis, value], …]
   * averaged (weighted by samples) into at most {@link #MAX_POINTS} buckets of equal time between
   * {@code from} and {@code to}, each point at the end of the last span it holds: a window longer
   * than the raw ring (10 minutes at 1 s) reads telemetry's history (ten-minute roll-ups of the
   * archived hours, then the minutes in memory).
   */
  static JsonArray withHistory(List<Rollup> history, SampleWindow raw, long from, long to) {
    long rawStart = raw.size() > 0 ? raw.timestamp(0) : Long.MAX_VALUE;
    long width = Math.max(1, (to - from + MAX_POINTS - 1) / MAX_POINTS);
    TreeMap<Long, double[]> buckets = new TreeMap<>();
    for (Rollup r : history) {
      if (r.endMillis() <= rawStart && Double.isFinite(r.avg())) {
        add(buckets, from, width, r.endMillis(), r.avg(), r.count());
      }
    }
    for (int i = 0; i < raw.size(); i++) {
      double v = raw.value(i);
      if (Double.isFinite(v)) {
        add(buckets, from, width, raw.timestamp(i), v, 1);
      }
    }
    JsonArray points = new JsonArray();
    buckets.values().forEach(b -> points.add(new JsonArray().add((long) b[2]).add(b[0] / b[1])));
    return points;
  }

  private static void add(
      TreeMap<Long, double[]> buckets,
      long from,
      long width,
      long at,
      double value,
      double weight) {
    // A point at the end of a span belongs to the bucket the span ends in.
    long key = Math.max(0, Math.min(MAX_POINTS - 1, Math.floorDiv(at - from - 1, width)));
    double[] b = buckets.computeIfAbsent(key, k -> new double[3]);
    b[0] += value * weight;
    b[1] += weight;
    b[2] = Math.max(b[2], at);
  }

  /**
   * Returns the window as [[epochMillis, value], …], averaged into at most {@link #MAX_POINTS}
   * buckets.
   */
  static JsonArray points(SampleWindow window) {
    JsonArray points = new JsonArray();
    int size = window.size();
    int stride = Math.max(1, (size + MAX_POINTS - 1) / MAX_POINTS);
    for (int start = 0; start < size; start += stride) {
      int end = Math.min(size, start + stride);
      double sum = 0;
      int count = 0;
      for (int i = start; i < end; i++) {
        double v = window.value(i);
        if (Double.isFinite(v)) {
          sum += v;
          count++;
        }
      }
      if (count > 0) {
        points.add(new JsonArray().add(window.timestamp(end - 1)).add(sum / count));
      }
    }
    return points;
  }
}
