package io.bulwark.health.internal;

import io.bulwark.api.fleet.Gpu;
import io.bulwark.api.fleet.Node;
import io.bulwark.api.fleet.NodeId;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The UUIDs of the GPUs in the inventory, looked up by node and index for new findings. */
final class GpuUuids {
  private final Map<NodeId, Map<Integer, String>> byNode = new HashMap<>();

  GpuUuids(List<Node> inventory) {
    for (Node node : inventory) {
      Map<Integer, String> gpus = new HashMap<>();
      for (Gpu gpu : node.gpus()) {
        gpus.put(gpu.index(), gpu.uuid());
      }
      byNode.put(node.id(), gpus);
    }
  }

  /** Returns the UUID of GPU {@code gpu} of {@code node}, or empty if unknown or node-level. */
  String of(NodeId node, int gpu) {
    return byNode.getOrDefault(node, Map.of()).getOrDefault(gpu, "");
  }
}
