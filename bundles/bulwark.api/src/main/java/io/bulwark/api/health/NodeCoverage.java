package io.bulwark.api.health;

import io.bulwark.api.fleet.NodeId;
import java.util.List;
import java.util.Objects;

/**
 * What the detectors can see of one reporting node: the detectors whose inputs its exporter does
 * not all serve (empty when every detector sees it fully).
 *
 * @param gpus how many GPUs the node reports
 * @since 1.3
 */
public record NodeCoverage(NodeId node, int gpus, List<CoverageGap> gaps) {

  public NodeCoverage {
    Objects.requireNonNull(node, "node");
    gaps = List.copyOf(gaps);
  }

  /** Returns true if every detector sees this node fully. */
  public boolean complete() {
    return gaps.isEmpty();
  }
}
