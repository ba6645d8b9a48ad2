package io.bulwark.sim.internal;

/**
 * What the simulator knows about the H100 it models, opened to the scenario pages: the H100 80GB
 * HBM3 constants and clock steps the simulator uses.
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

  /** Rounds an SM clock to the 15 MHz steps the GPU runs at. */
  public static double clockStep(double mhz) {
    return GpuModel.clockStep(mhz);
  }
}
