package io.bulwark.sim.internal;

import io.bulwark.api.telemetry.DcgmFieldInfo;

/**
 * What the simulator knows about dcgm-exporter's page format and the H100 it models, opened to the
 * scenario pages: numbers written as dcgm-exporter writes them, label values escaped, and the H100
 * 80GB HBM3 constants the simulator uses.
 */
public final class ExporterText {
  /** The model name dcgm-exporter reports for the simulated GPU. */
  public static final String MODEL_NAME = GpuModel.MODEL_NAME;

  /** The power management limit in W. */
  public static final double POWER_LIMIT_W = GpuModel.POWER_LIMIT_W;

  /** The SM boost clock in MHz. */
  public static final long PEAK_SM_CLOCK_MHZ = GpuModel.PEAK_SM_CLOCK_MHZ;

  /** The SM clock of an idle GPU in MHz. */
  public static final long IDLE_SM_CLOCK_MHZ = GpuModel.IDLE_SM_CLOCK_MHZ;

  /** The memory clock in MHz. */
  public static final long MEM_CLOCK_MHZ = GpuModel.MEM_CLOCK_MHZ;

  /** The frame buffer size in MiB. */
  public static final long FB_TOTAL_MIB = GpuModel.FB_TOTAL_MIB;

  private ExporterText() {}

  /** Appends {@code value} with six decimals, as dcgm-exporter prints DCGM's doubles. */
  public static void appendDecimal(StringBuilder out, double value) {
    DcgmFieldInfo.appendDecimal(out, value);
  }

  /** Returns a label value escaped as the Prometheus text format requires. */
  public static String escape(String value) {
    return DcgmFieldInfo.escapeLabelValue(value);
  }

  /** Rounds an SM clock to the 15 MHz steps the GPU runs at. */
  public static double clockStep(double mhz) {
    return GpuModel.clockStep(mhz);
  }
}
