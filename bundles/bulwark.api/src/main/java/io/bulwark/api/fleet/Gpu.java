package io.bulwark.api.fleet;

import java.util.Objects;

/**
 * One GPU installed in a node: its index on the node (dcgm-exporter's {@code gpu} label), its UUID
 * and model name. Empty strings stand for what telemetry did not report.
 */
public record Gpu(int index, String uuid, String model) {
  public Gpu {
    if (index < 0) {
      throw new IllegalArgumentException("GPU index must not be negative: " + index);
    }
    uuid = Objects.requireNonNullElse(uuid, "");
    model = Objects.requireNonNullElse(model, "");
  }
}
