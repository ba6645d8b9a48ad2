package io.bulwark.health.dcgm.internal;

import io.bulwark.api.fleet.Gpu;
import io.bulwark.api.fleet.Node;
import io.bulwark.api.fleet.NodeId;
import io.bulwark.api.health.DetectionContext;
import io.bulwark.api.telemetry.SeriesId;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One GPU a detector looks at: every GPU of the inventory and every GPU telemetry reports, with the
 * model and UUID telemetry gives (the inventory's when telemetry says nothing). A GPU that dropped
 * out of telemetry stays in view, so its last samples still count. Used by every detector of this
 * bundle.
 */
record ObservedGpu(NodeId node, int index, String model, String uuid) {

  /**
   * The GPUs of the latest evaluation: every detector asks for them, and one evaluation hands the
   * same context to all of them, so they are listed once per evaluation (and all detectors judge
   * the same list).
   */
  private static volatile Listed latest;

  /** Returns the GPUs in view in this evaluation, sorted by node and index. */
  static List<ObservedGpu> all(DetectionContext context) {
    Listed listed = latest;
    if (listed != null && listed.context == context) {
      return listed.gpus;
    }
    List<ObservedGpu> gpus = list(context);
    latest = new Listed(context, gpus);
    return gpus;
  }

  private static List<ObservedGpu> list(DetectionContext context) {
    Map<NodeId, Map<Integer, ObservedGpu>> byNode = new TreeMap<>();
    for (Node node : context.inventory()) {
      for (Gpu g : node.gpus()) {
        byNode
            .computeIfAbsent(node.id(), k -> new TreeMap<>())
            .put(g.index(), new ObservedGpu(node.id(), g.index(), g.model(), g.uuid()));
      }
    }
    for (NodeId node : context.telemetry().nodes()) {
      for (Gpu g : context.telemetry().reportedGpus(node)) {
        Map<Integer, ObservedGpu> gpus = byNode.computeIfAbsent(node, k -> new TreeMap<>());
        ObservedGpu known = gpus.get(g.index());
        String model = g.model().isEmpty() && known != null ? known.model() : g.model();
        String uuid = g.uuid().isEmpty() && known != null ? known.uuid() : g.uuid();
        gpus.put(g.index(), new ObservedGpu(node, g.index(), model, uuid));
      }
    }
    return byNode.values().stream().flatMap(m -> m.values().stream()).toList();
  }

  /** Returns the series of {@code metric} on this GPU. */
  SeriesId series(String metric) {
    return SeriesId.of(node, index, metric);
  }

  /** The GPUs listed for one evaluation's context. */
  private record Listed(DetectionContext context, List<ObservedGpu> gpus) {}

  /** Returns "GPU 3 of gpu-node-007" for summaries. */
  String describe() {
    return "GPU " + index + " of " + node.value();
  }
}
