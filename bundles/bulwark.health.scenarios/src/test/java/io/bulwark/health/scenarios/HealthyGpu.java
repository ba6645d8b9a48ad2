package io.bulwark.health.scenarios;

import io.bulwark.api.telemetry.ClockEventReason;
import io.bulwark.sim.internal.ExporterText;
import java.util.SplittableRandom;

/**
 * The healthy readings of one H100 SXM (80GB HBM3) of a scenario, second by second, with the
 * simulator's baseline values: busy in a training job (utilisation 96-99 %, SM clock at its 1980
 * MHz boost, 595-645 W of 700 W, 60-68 °C) or idle (GPU_IDLE reason, 345 MHz, about 70 W), small
 * seeded Gaussian jitter and, rarely, a one-second data-loader dip. Pure function of seed, GPU and
 * second.
 */
final class HealthyGpu {
  static final double SLOWDOWN_TEMP_C = 89;
  static final double SHUTDOWN_TEMP_C = 92;
  static final double MAX_OP_TEMP_C = 87;
  static final long MAX_SM_CLOCK_MHZ = 1980;
  static final long START_MILLIS = 1_767_225_600_000L;
  private static final double DIP_PROBABILITY = 0.004;

  private final long key;
  private final boolean idle;
  private final double utilMean;
  private final double powerMean;
  private final double baseTemp;
  private final double memTempOffset;
  private final double tempPhase;
  private final long fbUsed;
  private final long sbeVolatile;
  private final long sbeAggregate;
  private final long pcieReplays;
  private final double nvlinkRate;
  private final double smActive;
  private final double occupancy;
  private final double tensor;
  private final double dram;
  private final long uptimeMillis;
  private final long powerViolationNs;
  private final long thermalViolationNs;

  HealthyGpu(long seed, int node, int gpu, boolean idle) {
    this.key = seed * 1_000_003L + node * 64L + gpu;
    this.idle = idle;
    SplittableRandom r = new SplittableRandom(key * 0x9E3779B97F4A7C15L);
    this.utilMean = between(r, 96, 99);
    this.powerMean = idle ? between(r, 66, 74) : between(r, 595, 645);
    this.baseTemp = idle ? between(r, 30, 35) : between(r, 60, 68);
    this.memTempOffset = between(r, 3, 7);
    this.tempPhase = between(r, 0, 600);
    this.fbUsed = idle ? 0 : Math.round(between(r, 70_000, 78_000));
    boolean hasSbe = r.nextDouble() < 0.05;
    this.sbeVolatile = hasSbe ? Math.round(between(r, 1, 12)) : 0;
    this.sbeAggregate = sbeVolatile + (r.nextDouble() < 0.1 ? Math.round(between(r, 1, 40)) : 0);
    this.pcieReplays = r.nextDouble() < 0.05 ? Math.round(between(r, 1, 30)) : 0;
    this.nvlinkRate = between(r, 90_000, 130_000);
    this.smActive = between(r, 0.86, 0.93);
    this.occupancy = between(r, 0.40, 0.50);
    this.tensor = between(r, 0.50, 0.62);
    this.dram = between(r, 0.35, 0.45);
    this.uptimeMillis = (long) (between(r, 2, 40) * 86_400_000L);
    this.powerViolationNs = (long) between(r, 0, 4e9);
    this.thermalViolationNs = r.nextDouble() < 0.1 ? (long) between(r, 0, 2e9) : 0;
  }

  /** Fills {@code out} (indexed by {@link GpuField#ordinal()}) with the readings of second t. */
  void readings(int t, double[] out) {
    long sinceBoot = uptimeMillis + t * 1000L;
    set(out, GpuField.MEM_CLOCK, ExporterText.MEM_CLOCK_MHZ);
    set(out, GpuField.MAX_SM_CLOCK, MAX_SM_CLOCK_MHZ);
    set(out, GpuField.MAX_MEM_CLOCK, ExporterText.MEM_CLOCK_MHZ);
    set(out, GpuField.SLOWDOWN_TEMP, SLOWDOWN_TEMP_C);
    set(out, GpuField.SHUTDOWN_TEMP, SHUTDOWN_TEMP_C);
    set(out, GpuField.GPU_MAX_OP_TEMP, MAX_OP_TEMP_C);
    set(out, GpuField.POWER_LIMIT, ExporterText.POWER_LIMIT_W);
    set(out, GpuField.ENFORCED_POWER_LIMIT, ExporterText.POWER_LIMIT_W);
    set(out, GpuField.TOTAL_ENERGY, Math.floor(powerMean * sinceBoot));
    set(out, GpuField.PCIE_REPLAY, pcieReplays);
    set(out, GpuField.PCIE_LINK_GEN, 5);
    set(out, GpuField.PCIE_LINK_WIDTH, 16);
    set(out, GpuField.PCIE_MAX_LINK_GEN, 5);
    set(out, GpuField.PCIE_MAX_LINK_WIDTH, 16);
    set(out, GpuField.XID_ERRORS, 0);
    set(out, GpuField.POWER_VIOLATION, powerViolationNs);
    set(out, GpuField.THERMAL_VIOLATION, thermalViolationNs);
    set(out, GpuField.SYNC_BOOST_VIOLATION, 0);
    set(out, GpuField.BOARD_LIMIT_VIOLATION, 0);
    set(out, GpuField.RELIABILITY_VIOLATION, 0);
    set(out, GpuField.FB_USED, fbUsed);
    set(out, GpuField.ECC_SBE_VOL, sbeVolatile);
    set(out, GpuField.ECC_DBE_VOL, 0);
    set(out, GpuField.ECC_SBE_AGG, sbeAggregate);
    set(out, GpuField.ECC_DBE_AGG, 0);
    set(out, GpuField.RETIRED_SBE, 0);
    set(out, GpuField.RETIRED_DBE, 0);
    set(out, GpuField.RETIRED_PENDING, 0);
    set(out, GpuField.ROW_REMAP_FAILURE, 0);
    set(out, GpuField.ROW_REMAP_PENDING, 0);
    set(out, GpuField.UNCORRECTABLE_REMAPPED_ROWS, 0);
    set(out, GpuField.CORRECTABLE_REMAPPED_ROWS, 0);
    set(out, GpuField.BANKS_REMAP_MAX, 640);
    set(out, GpuField.BANKS_REMAP_HIGH, 0);
    set(out, GpuField.BANKS_REMAP_PARTIAL, 0);
    set(out, GpuField.BANKS_REMAP_LOW, 0);
    set(out, GpuField.BANKS_REMAP_NONE, 0);
    set(out, GpuField.NVLINK_CRC_FLIT, 0);
    set(out, GpuField.NVLINK_CRC_DATA, 0);
    set(out, GpuField.NVLINK_REPLAY, 0);
    set(out, GpuField.NVLINK_RECOVERY, 0);
    if (idle) {
      idle(t, sinceBoot, out);
    } else {
      busy(t, sinceBoot, out);
    }
  }

  /** Returns the memory temperature that goes with GPU temperature {@code gpuTemp} at second t. */
  double memoryTemp(int t, double gpuTemp) {
    return Math.round(gpuTemp + (idle ? memTempOffset / 2 : memTempOffset + 0.5 * gauss(7, t)));
  }

  private void busy(int t, long sinceBoot, double[] out) {
    double dip = dipsAt(t) ? 0.45 + 0.2 * uniform(13, t) : 1;
    double temp =
        baseTemp + 2.5 * Math.sin(2 * Math.PI * (t + tempPhase) / 600) + 0.6 * gauss(5, t);
    set(out, GpuField.GPU_TEMP, Math.round(clamp(temp, 55, 75)));
    double clock = ExporterText.PEAK_SM_CLOCK_MHZ - Math.abs(gauss(3, t)) * 10;
    set(out, GpuField.SM_CLOCK, ExporterText.clockStep(dip < 1 ? clock * 0.88 : clock));
    double power = clamp(powerMean + 14 * gauss(4, t), 550, 690) * (dip < 1 ? 0.62 : 1);
    set(out, GpuField.POWER_USAGE, Math.round(power * 1000) / 1000.0);
    set(out, GpuField.GPU_UTIL, Math.round(dip * clamp(utilMean + 1.2 * gauss(1, t), 90, 100)));
    set(out, GpuField.MEM_COPY_UTIL, Math.round(dip * clamp(45 + 3 * gauss(2, t), 0, 100)));
    set(out, GpuField.CLOCK_EVENTS, 0);
    set(out, GpuField.NVLINK_BANDWIDTH, Math.floor(nvlinkRate * sinceBoot / 1000));
    set(out, GpuField.GR_ENGINE_ACTIVE, ratio(dip * (0.97 + 0.01 * gauss(11, t))));
    set(out, GpuField.SM_ACTIVE, ratio(dip * (smActive + 0.015 * gauss(8, t))));
    set(out, GpuField.SM_OCCUPANCY, ratio(dip * (occupancy + 0.02 * gauss(9, t))));
    set(out, GpuField.TENSOR_ACTIVE, ratio(dip * (tensor + 0.03 * gauss(10, t))));
    set(out, GpuField.DRAM_ACTIVE, ratio(dip * (dram + 0.02 * gauss(12, t))));
  }

  private void idle(int t, long sinceBoot, double[] out) {
    set(out, GpuField.GPU_TEMP, Math.round(baseTemp + 0.4 * gauss(5, t)));
    set(out, GpuField.SM_CLOCK, ExporterText.IDLE_SM_CLOCK_MHZ);
    set(out, GpuField.POWER_USAGE, Math.round((powerMean + 1.5 * gauss(4, t)) * 1000) / 1000.0);
    set(out, GpuField.GPU_UTIL, 0);
    set(out, GpuField.MEM_COPY_UTIL, 0);
    set(out, GpuField.CLOCK_EVENTS, ClockEventReason.GPU_IDLE.mask());
    set(out, GpuField.NVLINK_BANDWIDTH, Math.floor(nvlinkRate * 21_600));
    set(out, GpuField.GR_ENGINE_ACTIVE, 0);
    set(out, GpuField.SM_ACTIVE, 0);
    set(out, GpuField.SM_OCCUPANCY, 0);
    set(out, GpuField.TENSOR_ACTIVE, 0);
    set(out, GpuField.DRAM_ACTIVE, 0);
  }

  private boolean dipsAt(int t) {
    return uniform(14, t) < DIP_PROBABILITY && uniform(14, t - 1) >= DIP_PROBABILITY;
  }

  private double uniform(int channel, int t) {
    long h = key * 0x9E3779B97F4A7C15L + channel * 0xC2B2AE3D27D4EB4FL + t * 0x165667B19E3779F9L;
    return new SplittableRandom(h).nextDouble();
  }

  private double gauss(int channel, int t) {
    double u = Math.max(1e-12, uniform(channel, t));
    double v = uniform(channel + 100, t);
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }

  private static double between(SplittableRandom r, double low, double high) {
    return low + (high - low) * r.nextDouble();
  }

  private static double ratio(double v) {
    return Math.round(clamp(v, 0, 1) * 1_000_000) / 1_000_000.0;
  }

  static double clamp(double v, double low, double high) {
    return Math.max(low, Math.min(high, v));
  }

  private static void set(double[] out, GpuField field, double value) {
    out[field.ordinal()] = value;
  }
}
