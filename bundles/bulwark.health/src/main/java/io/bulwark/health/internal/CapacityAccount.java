package io.bulwark.health.internal;

import io.bulwark.api.fleet.Gpu;
import io.bulwark.api.fleet.Node;
import io.bulwark.api.fleet.NodeId;
import io.bulwark.api.health.CapacityReport;
import io.bulwark.api.health.Finding;
import io.bulwark.api.health.GpuCapacity;
import io.bulwark.api.health.Severity;
import io.bulwark.api.telemetry.TelemetryQuery;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;

/**
 * Computes the effective-capacity account from the inventory, the open findings and telemetry
 * freshness. A GPU is healthy when it has no open critical finding (on itself or on its whole node)
 * and its node reported telemetry recently; a healthy GPU runs at the lowest performance factor of
 * its open non-critical findings (1.0 if none), an unhealthy one delivers 0. Used by the health
 * engine after each evaluation.
 */
final class CapacityAccount {
  private static final int WHOLE_NODE = -1;

  private CapacityAccount() {}

  /**
   * @param staleAfterMillis how long a node may stay silent before its GPUs count as not reporting
   */
  static CapacityReport compute(
      List<Node> inventory,
      Collection<Finding> open,
      TelemetryQuery telemetry,
      long nowMillis,
      long staleAfterMillis) {
    Set<GpuKey> critical = new HashSet<>();
    Map<GpuKey, Double> factor = new HashMap<>();
    for (Finding f : open) {
      GpuKey key = new GpuKey(f.node(), f.gpu());
      if (f.severity() == Severity.CRITICAL) {
        critical.add(key);
      } else {
        factor.merge(key, f.performanceFactor(), Math::min);
      }
    }
    List<GpuCapacity> gpus = new ArrayList<>();
    for (Node node : inventory) {
      boolean reporting = reportedSince(telemetry, node.id(), nowMillis - staleAfterMillis);
      GpuKey wholeNode = new GpuKey(node.id(), WHOLE_NODE);
      for (Gpu gpu : node.gpus()) {
        GpuKey key = new GpuKey(node.id(), gpu.index());
        boolean healthy = reporting && !critical.contains(key) && !critical.contains(wholeNode);
        double performance =
            healthy
                ? Math.min(factor.getOrDefault(key, 1.0), factor.getOrDefault(wholeNode, 1.0))
                : 0.0;
        gpus.add(new GpuCapacity(node.id(), gpu.index(), healthy, performance));
      }
    }
    return CapacityReport.of(Instant.ofEpochMilli(nowMillis), gpus);
  }

  private static boolean reportedSince(TelemetryQuery telemetry, NodeId node, long sinceMillis) {
    OptionalLong last = telemetry.lastScrapeMillis(node);
    return last.isPresent() && last.getAsLong() >= sinceMillis;
  }

  private record GpuKey(NodeId node, int gpu) {}
}
