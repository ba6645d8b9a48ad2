package io.bulwark.health.internal;

import io.bulwark.api.fleet.Gpu;
import io.bulwark.api.fleet.Node;
import io.bulwark.api.fleet.NodeId;
import io.bulwark.api.telemetry.TelemetryQuery;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The nodes one evaluation judges: the inventory as last read, with what telemetry reports that it
 * does not hold yet (a node not recorded yet, a GPU at an index the inventory lacks). The
 * inventory's owner records those in its own time; until then they are judged from telemetry, so
 * that a new node is never out of sight and a lagging or updating inventory delays nothing.
 */
final class EvaluatedFleet {
  private EvaluatedFleet() {}

  static List<Node> of(List<Node> inventory, TelemetryQuery telemetry, Instant now) {
    Map<NodeId, Node> known =
        inventory.stream().collect(Collectors.toMap(Node::id, Function.identity(), (a, b) -> a));
    Set<NodeId> reporting = telemetry.nodes();
    List<Node> judged = new ArrayList<>(known.size() + 8);
    for (Node node : inventory) {
      judged.add(reporting.contains(node.id()) ? withReported(node, telemetry) : node);
    }
    for (NodeId id : reporting) {
      if (!known.containsKey(id)) {
        judged.add(new Node(id, telemetry.reportedGpus(id), now, now));
      }
    }
    judged.sort(Comparator.comparing(Node::id));
    return judged;
  }

  private static Node withReported(Node node, TelemetryQuery telemetry) {
    List<Gpu> reported = telemetry.reportedGpus(node.id());
    TreeMap<Integer, Gpu> gpus = null;
    for (Gpu gpu : reported) {
      if (node.gpu(gpu.index()).isEmpty()) {
        if (gpus == null) {
          gpus = new TreeMap<>();
          for (Gpu g : node.gpus()) {
            gpus.put(g.index(), g);
          }
        }
        gpus.put(gpu.index(), gpu);
      }
    }
    return gpus == null
        ? node
        : new Node(node.id(), List.copyOf(gpus.values()), node.firstSeen(), node.lastSeen());
  }
}
