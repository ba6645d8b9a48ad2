package io.bulwark.agent.internal;

import java.util.Arrays;

/**
 * What one sample read from one GPU: its identity (index, UUID, serial, PCI bus id, model) and a
 * value per {@link AgentMetric}, NaN where NVML had none. Filled by {@link GpuReader} on the
 * sampling thread, then only read.
 */
final class GpuReading {
  final int index;
  String uuid = "";
  String serial = "";
  String pciBusId = "";
  String model = "";
  private final double[] values = new double[AgentMetric.COUNT];

  GpuReading(int index) {
    this.index = index;
    Arrays.fill(values, Double.NaN);
  }

  void set(AgentMetric metric, double value) {
    values[metric.ordinal()] = value;
  }

  /** Returns the value of {@code metric}, or NaN if this GPU did not report it. */
  double value(AgentMetric metric) {
    return values[metric.ordinal()];
  }

  boolean has(AgentMetric metric) {
    return !Double.isNaN(values[metric.ordinal()]);
  }
}
