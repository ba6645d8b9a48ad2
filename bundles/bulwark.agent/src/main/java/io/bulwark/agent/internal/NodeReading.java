package io.bulwark.agent.internal;

import java.util.List;

/**
 * One sample of the node: whether NVML could be read at all (and if not, why), the driver version,
 * the GPUs read and the GPUs lost. Immutable once made; rendered by {@link AgentPage}.
 *
 * @param up true if NVML answered
 * @param problem why NVML could not be read; empty when up
 * @param driverVersion the NVIDIA driver version, empty if unknown
 */
record NodeReading(
    boolean up, String problem, String driverVersion, List<GpuReading> gpus, List<LostGpu> lost) {

  NodeReading {
    gpus = List.copyOf(gpus);
    lost = List.copyOf(lost);
  }

  /** Returns the reading of a node whose GPUs cannot be read, for {@code problem}. */
  static NodeReading down(String problem, List<LostGpu> lost) {
    return new NodeReading(false, problem, "", List.of(), lost);
  }
}
