package io.bulwark.api.telemetry;

import io.bulwark.api.fleet.NodeId;
import java.util.Objects;

/**
 * Names one time series: a metric (a dcgm-exporter field name such as {@code DCGM_FI_DEV_GPU_TEMP})
 * of one GPU on one node, or of the node itself when {@code gpu} is {@link #NODE_LEVEL}.
 */
public record SeriesId(NodeId node, int gpu, String metric) {
  /** The GPU index of a series that belongs to the node, not to one GPU. */
  public static final int NODE_LEVEL = -1;

  public SeriesId {
    Objects.requireNonNull(node, "node");
    Objects.requireNonNull(metric, "metric");
    if (gpu < NODE_LEVEL) {
      throw new IllegalArgumentException("GPU index must be >= 0 (or NODE_LEVEL): " + gpu);
    }
  }

  /** Returns the series of {@code metric} on GPU {@code gpu} of {@code node}. */
  public static SeriesId of(NodeId node, int gpu, String metric) {
    return new SeriesId(node, gpu, metric);
  }
}
