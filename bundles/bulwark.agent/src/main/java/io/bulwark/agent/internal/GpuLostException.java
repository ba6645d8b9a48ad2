package io.bulwark.agent.internal;

/**
 * Thrown by {@link GpuReader} when NVML answers {@code NVML_ERROR_GPU_IS_LOST}: the GPU fell off
 * the bus or stopped answering, and none of its readings can be trusted.
 */
final class GpuLostException extends Exception {
  private static final long serialVersionUID = 1L;

  final int index;
  final String function;

  GpuLostException(int index, String function) {
    super("GPU " + index + " is lost (" + function + " answered NVML_ERROR_GPU_IS_LOST)");
    this.index = index;
    this.function = function;
  }
}
