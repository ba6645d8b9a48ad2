package io.bulwark.health.internal;

import io.bulwark.api.fleet.Gpu;
import io.bulwark.api.fleet.Node;
import io.bulwark.api.fleet.NodeId;
import io.bulwark.api.health.CapacityReport;
import io.bulwark.api.health.Finding;
import io.bulwark.api.health.FindingKind;
import io.bulwark.api.health.GpuCapacity;
import io.bulwark.api.health.Severity;
import io.bulwark.api.telemetry.TelemetryQuery;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

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
    Map<GpuKey, String> critical = new HashMap<>();
    Map<GpuKey, Finding> slowest = new HashMap<>();
    for (Finding f : open) {
      GpuKey key = new GpuKey(f.node(), f.gpu());
      if (f.severity() == Severity.CRITICAL) {
        critical.putIfAbsent(key, f.kind());
      } else {
        slowest.merge(key, f, (a, b) -> b.performanceFactor() < a.performanceFactor() ? b : a);
      }
    }
    List<GpuCapacity> gpus = new ArrayList<>();
    for (Node node : inventory) {
      boolean reporting = reportedSince(telemetry, node.id(), nowMillis - staleAfterMillis);
      GpuKey wholeNode = new GpuKey(node.id(), WHOLE_NODE);
      for (Gpu gpu : node.gpus()) {
        GpuKey key = new GpuKey(node.id(), gpu.index());
        String failedBy =
            !reporting
                ? FindingKind.TELEMETRY_STALE
                : critical.getOrDefault(key, critical.get(wholeNode));
        if (failedBy != null) {
          gpus.add(new GpuCapacity(node.id(), gpu.index(), false, 0.0, failedBy));
          continue;
        }
        Finding own = slowest.get(key);
        Finding nodeWide = slowest.get(wholeNode);
        Finding limiting =
            own == null
                ? nodeWide
                : nodeWide == null || own.performanceFactor() <= nodeWide.performanceFactor()
                    ? own
                    : nodeWide;
        double performance = limiting == null ? 1.0 : limiting.performanceFactor();
        gpus.add(
            new GpuCapacity(
                node.id(),
                gpu.index(),
                true,
                performance,
                limiting == null || performance >= 1.0 ? "" : limiting.kind()));
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
