package io.bulwark.health.internal;

import io.bulwark.api.fleet.NodeId;
import io.bulwark.api.health.CoverageGap;
import io.bulwark.api.health.DetectorInput;
import io.bulwark.api.health.NodeCoverage;
import io.bulwark.api.telemetry.TelemetryQuery;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;

/**
 * Compares the fields each detector reads with the fields each reporting node's exporter serves: a
 * detector whose input a node lacks cannot see that kind of fault there, and the node must not pass
 * for sound on that account. Judged per node from the metric names its latest pages held.
 */
final class DetectorCoverage {
  private DetectorCoverage() {}

  /**
   * @param reportedSinceMillis only nodes scraped since then are judged: a silent node's GPUs are
   *     unknown, which the capacity account says already
   */
  static List<NodeCoverage> of(
      Map<String, List<DetectorInput>> inputs, TelemetryQuery telemetry, long reportedSinceMillis) {
    List<NodeCoverage> nodes = new ArrayList<>();
    for (NodeId node : telemetry.nodes()) {
      OptionalLong last = telemetry.lastScrapeMillis(node);
      if (last.isEmpty() || last.getAsLong() < reportedSinceMillis) {
        continue;
      }
      Set<String> served = telemetry.metrics(node);
      List<CoverageGap> gaps = new ArrayList<>();
      inputs.forEach(
          (detector, needs) -> {
            List<DetectorInput> missing =
                needs.stream().filter(input -> !input.servedBy(served)).toList();
            if (!missing.isEmpty()) {
              gaps.add(new CoverageGap(detector, missing));
            }
          });
      nodes.add(new NodeCoverage(node, telemetry.reportedGpus(node).size(), gaps));
    }
    return nodes;
  }
}
