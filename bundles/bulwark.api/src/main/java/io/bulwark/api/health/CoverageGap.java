package io.bulwark.api.health;

import java.util.List;
import java.util.Objects;

/**
 * A detector that cannot fully see a node: the inputs it reads that the node's exporter does not
 * serve.
 *
 * @since 1.3
 */
public record CoverageGap(String detector, List<DetectorInput> missing) {

  public CoverageGap {
    Objects.requireNonNull(detector, "detector");
    missing = List.copyOf(missing);
  }
}
