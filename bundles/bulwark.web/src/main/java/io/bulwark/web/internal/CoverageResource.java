package io.bulwark.web.internal;

import io.bulwark.api.health.CoverageGap;
import io.bulwark.api.health.DetectorInput;
import io.bulwark.api.health.HealthService;
import io.bulwark.api.health.NodeCoverage;
import io.bulwark.web.api.ApiRequest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code GET /api/v1/telemetry/coverage}: which detectors cannot fully see which nodes, because the
 * nodes' exporters do not serve the fields they read. Gaps are grouped by detector and missing
 * fields, each with how many nodes and GPUs it leaves unseen and the first nodes by name, so that a
 * fleet of thousands of nodes reads in a few lines.
 */
final class CoverageResource {
  static final int SAMPLE_NODES = 10;

  private final HealthService health;

  CoverageResource(HealthService health) {
    this.health = health;
  }

  void coverage(RoutingContext ctx) {
    ApiRequest.json(ctx, json(health.coverage()));
  }

  static JsonObject json(List<NodeCoverage> nodes) {
    Map<List<Object>, Group> groups = new LinkedHashMap<>();
    int complete = 0;
    int gpusPartly = 0;
    for (NodeCoverage node : nodes) {
      if (node.complete()) {
        complete++;
        continue;
      }
      gpusPartly += node.gpus();
      for (CoverageGap gap : node.gaps()) {
        List<String> missing = gap.missing().stream().map(DetectorInput::describe).toList();
        groups
            .computeIfAbsent(
                List.of(gap.detector(), missing), k -> new Group(gap.detector(), missing))
            .add(node);
      }
    }
    JsonArray gaps = new JsonArray();
    groups.values().forEach(g -> gaps.add(g.json()));
    return new JsonObject()
        .put("nodesReporting", nodes.size())
        .put("nodesComplete", complete)
        .put("gpusPartlyCovered", gpusPartly)
        .put("gaps", gaps);
  }

  /** Returns how many GPUs report from nodes that some detector cannot fully see. */
  static int gpusPartlyCovered(List<NodeCoverage> nodes) {
    int gpus = 0;
    for (NodeCoverage node : nodes) {
      if (!node.complete()) {
        gpus += node.gpus();
      }
    }
    return gpus;
  }

  private static final class Group {
    final String detector;
    final List<String> missing;
    final List<String> sample = new ArrayList<>();
    int nodes;
    int gpus;

    Group(String detector, List<String> missing) {
      this.detector = detector;
      this.missing = missing;
    }

    void add(NodeCoverage node) {
      nodes++;
      gpus += node.gpus();
      if (sample.size() < SAMPLE_NODES) {
        sample.add(node.node().value());
      }
    }

    JsonObject json() {
      return new JsonObject()
          .put("detector", detector)
          .put("missing", new JsonArray(missing))
          .put("nodes", nodes)
          .put("gpus", gpus)
          .put("sampleNodes", new JsonArray(sample));
    }
  }
}
