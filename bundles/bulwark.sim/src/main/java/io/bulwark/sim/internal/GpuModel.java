package io.bulwark.sim.internal;

import io.bulwark.api.telemetry.ClockEventReason;

/**
 * The healthy behaviour of a simulated NVIDIA H100 80GB HBM3 (SXM): a busy GPU of a training job
 * (utilisation 90-100 %, SM clock at its 1980 MHz boost, 550-690 W of a 700 W limit, 55-75 C, PCIe
 * Gen5 x16) or an idle one (no load, GPU_IDLE reason, 345 MHz, about 70 W, its PCIe link down to
 * Gen1 to save power). Error counters hold what the GPU gathered before: a few corrected ECC
 * errors, PCIe and NVLink replays, a remapped row, throttle time; a tenth of the busy GPUs see an
 * NVLink CRC error every minute or two, far below a harmful rate. Readings carry small Gaussian
 * jitter and, rarely, a one-second dip of the kind a data loader stall causes, which a robust
 * detector must ride out. Pure functions of the profile and the time.
 */
final class GpuModel {
  static final String MODEL_NAME = "NVIDIA H100 80GB HBM3";
  static final double POWER_LIMIT_W = 700;
  static final long PEAK_SM_CLOCK_MHZ = 1980;
  static final long IDLE_SM_CLOCK_MHZ = 345;
  static final long MEM_CLOCK_MHZ = 2619;
  static final long FB_TOTAL_MIB = 81559;
  static final long CLOCK_STEP_MHZ = 15;
  static final long SLOWDOWN_TEMP_C = 89;
  static final long SHUTDOWN_TEMP_C = 92;
  static final long MAX_OP_TEMP_C = 87;
  static final int PCIE_MAX_GEN = 5;
  static final int PCIE_IDLE_GEN = 1;
  static final int PCIE_MAX_WIDTH = 16;

  /** Memory banks in the spare-row histogram of an H100 80GB. */
  static final int REMAP_BANKS = 640;

  /** The share of GPU-seconds that carry a short dip in activity. */
  static final double DIP_PROBABILITY = 0.004;

  private static final int UTIL = 1;
  private static final int MEM_COPY = 2;
  private static final int CLOCK = 3;
  private static final int POWER = 4;
  private static final int TEMP = 5;
  private static final int MEM_TEMP = 6;
  private static final int SM_ACTIVE = 7;
  private static final int OCCUPANCY = 8;
  private static final int TENSOR = 9;
  private static final int DRAM = 10;
  private static final int GR_ENGINE = 11;
  private static final int DIP = 12;
  private static final int DIP_DEPTH = 13;
  private static final long DAY_MILLIS = 86_400_000L;
  private static final double TEMP_SWING_PERIOD_S = 600;

  private final Noise noise;
  private final long startMillis;

  /**
   * @param startMillis when the simulation started; nodes booted days before it
   */
  GpuModel(Noise noise, long startMillis) {
    this.noise = noise;
    this.startMillis = startMillis;
  }

  Noise noise() {
    return noise;
  }

  /** Returns the noise key of GPU {@code gpu} on the node with index {@code node}. */
  static long key(int node, int gpu) {
    return (long) node * 64 + gpu;
  }

  /**
   * Draws the profile of one GPU from the seed. The GPUs of a node share its air: their
   * temperatures sit within a few degrees of the node's and swing together.
   */
  GpuProfile profile(int node, int gpu, boolean idle) {
    long key = key(node, gpu);
    long nodeKey = key(node, 63);
    long uptime = (long) (noise.between(nodeKey, 100, 2, 40) * DAY_MILLIS);
    boolean hasSbe = noise.uniform(key, 101, Noise.CONSTANT) < 0.05;
    boolean hasReplays = noise.uniform(key, 102, Noise.CONSTANT) < 0.05;
    long sbe = hasSbe ? Math.round(noise.between(key, 110, 1, 12)) : 0;
    boolean olderSbe = noise.uniform(key, 117, Noise.CONSTANT) < 0.1;
    boolean thermalHistory = noise.uniform(key, 119, Noise.CONSTANT) < 0.1;
    boolean linkReplayed = noise.uniform(key, 121, Noise.CONSTANT) < 0.03;
    boolean crcTrickle = noise.uniform(key, 122, Noise.CONSTANT) < 0.1;
    boolean remapped = noise.uniform(key, 124, Noise.CONSTANT) < 0.03;
    return new GpuProfile(
        key,
        idle,
        startMillis - uptime,
        noise.between(key, 103, 96, 99),
        noise.between(key, 104, 38, 52),
        idle ? noise.between(key, 105, 66, 74) : noise.between(key, 105, 595, 645),
        idle
            ? noise.between(key, 106, 30, 35)
            : noise.between(nodeKey, 106, 60, 66) + noise.between(key, 127, -2, 2),
        noise.between(key, 107, 3, 7),
        noise.between(nodeKey, 108, 0, TEMP_SWING_PERIOD_S),
        idle ? 0 : Math.round(noise.between(key, 109, 70_000, 78_000)),
        sbe,
        hasReplays ? Math.round(noise.between(key, 111, 1, 30)) : 0,
        noise.between(key, 112, 90_000, 130_000),
        noise.between(key, 113, 0.86, 0.93),
        noise.between(key, 114, 0.40, 0.50),
        noise.between(key, 115, 0.50, 0.62),
        noise.between(key, 116, 0.35, 0.45),
        sbe + (olderSbe ? Math.round(noise.between(key, 118, 1, 40)) : 0),
        (long) noise.between(key, 120, 0, 4e9),
        thermalHistory ? (long) noise.between(key, 125, 0, 2e9) : 0,
        linkReplayed ? Math.round(noise.between(key, 126, 1, 4)) : 0,
        crcTrickle && !idle ? Math.round(noise.between(key, 123, 20, 120)) : 0,
        remapped ? 1 : 0);
  }

  /**
   * Fills {@code out} (indexed by {@link Metric#ordinal()}) with the healthy readings at {@code
   * nowMillis}.
   */
  void healthy(GpuProfile p, long nowMillis, double[] out) {
    long step = Math.floorDiv(nowMillis, 1000);
    long key = p.key();
    long sinceBoot = Math.max(0, nowMillis - p.bootMillis());
    out[Metric.MEM_CLOCK.ordinal()] = MEM_CLOCK_MHZ;
    out[Metric.POWER_LIMIT.ordinal()] = POWER_LIMIT_W;
    out[Metric.TOTAL_ENERGY.ordinal()] = Math.floor(p.powerMean() * sinceBoot);
    out[Metric.PCIE_REPLAY.ordinal()] = p.pcieReplays();
    out[Metric.XID_ERRORS.ordinal()] = 0;
    out[Metric.FB_USED.ordinal()] = p.fbUsed();
    out[Metric.FB_FREE.ordinal()] = FB_TOTAL_MIB - p.fbUsed();
    out[Metric.ECC_SBE_VOL.ordinal()] = p.sbeErrors();
    out[Metric.ECC_DBE_VOL.ordinal()] = 0;
    out[Metric.ROW_REMAP_FAILURE.ordinal()] = 0;
    out[Metric.ROW_REMAP_PENDING.ordinal()] = 0;
    out[Metric.MAX_SM_CLOCK.ordinal()] = PEAK_SM_CLOCK_MHZ;
    out[Metric.MAX_MEM_CLOCK.ordinal()] = MEM_CLOCK_MHZ;
    out[Metric.SLOWDOWN_TEMP.ordinal()] = SLOWDOWN_TEMP_C;
    out[Metric.SHUTDOWN_TEMP.ordinal()] = SHUTDOWN_TEMP_C;
    out[Metric.GPU_MAX_OP_TEMP.ordinal()] = MAX_OP_TEMP_C;
    out[Metric.ENFORCED_POWER_LIMIT.ordinal()] = POWER_LIMIT_W;
    out[Metric.POWER_VIOLATION.ordinal()] = p.powerViolationNs();
    out[Metric.THERMAL_VIOLATION.ordinal()] = p.thermalViolationNs();
    out[Metric.PCIE_LINK_GEN.ordinal()] = p.idle() ? PCIE_IDLE_GEN : PCIE_MAX_GEN;
    out[Metric.PCIE_LINK_WIDTH.ordinal()] = PCIE_MAX_WIDTH;
    out[Metric.PCIE_MAX_LINK_GEN.ordinal()] = PCIE_MAX_GEN;
    out[Metric.PCIE_MAX_LINK_WIDTH.ordinal()] = PCIE_MAX_WIDTH;
    out[Metric.ECC_SBE_AGG.ordinal()] = p.sbeAggregate();
    out[Metric.ECC_DBE_AGG.ordinal()] = 0;
    out[Metric.RETIRED_SBE.ordinal()] = 0;
    out[Metric.RETIRED_DBE.ordinal()] = 0;
    out[Metric.RETIRED_PENDING.ordinal()] = 0;
    long crc = p.crcSecondsPerError() > 0 ? sinceBoot / 1000 / p.crcSecondsPerError() : 0;
    out[Metric.NVLINK_CRC_FLIT.ordinal()] = crc;
    out[Metric.NVLINK_CRC_DATA.ordinal()] = crc / 8;
    out[Metric.NVLINK_REPLAY.ordinal()] = p.nvlinkReplays();
    out[Metric.NVLINK_RECOVERY.ordinal()] = 0;
    out[Metric.UNCORRECTABLE_REMAPPED_ROWS.ordinal()] = 0;
    out[Metric.CORRECTABLE_REMAPPED_ROWS.ordinal()] = p.correctableRemappedRows();
    spareRowBanks(out);
    if (p.idle()) {
      idle(p, step, sinceBoot, out);
      return;
    }
    double dip = dipsAt(key, step) ? 0.45 + 0.2 * noise.uniform(key, DIP_DEPTH, step) : 1;
    double temp =
        p.baseTemp()
            + 2.5 * Math.sin(2 * Math.PI * (step + p.tempPhaseSeconds()) / TEMP_SWING_PERIOD_S)
            + 0.6 * noise.gaussian(key, TEMP, step);
    long gpuTemp = Math.round(clamp(temp, 55, 75));
    out[Metric.GPU_TEMP.ordinal()] = gpuTemp;
    out[Metric.MEMORY_TEMP.ordinal()] =
        Math.round(gpuTemp + p.memTempOffset() + 0.5 * noise.gaussian(key, MEM_TEMP, step));
    double clock = PEAK_SM_CLOCK_MHZ - Math.abs(noise.gaussian(key, CLOCK, step)) * 10;
    out[Metric.SM_CLOCK.ordinal()] = clockStep(dip < 1 ? clock * 0.88 : clock);
    double power = clamp(p.powerMean() + 14 * noise.gaussian(key, POWER, step), 550, 690);
    out[Metric.POWER_USAGE.ordinal()] = milli(power * (dip < 1 ? 0.62 : 1));
    out[Metric.GPU_UTIL.ordinal()] =
        Math.round(dip * clamp(p.utilMean() + 1.2 * noise.gaussian(key, UTIL, step), 90, 100));
    out[Metric.MEM_COPY_UTIL.ordinal()] =
        Math.round(dip * clamp(p.memCopyMean() + 3 * noise.gaussian(key, MEM_COPY, step), 0, 100));
    out[Metric.CLOCK_EVENTS.ordinal()] = 0;
    out[Metric.NVLINK_BANDWIDTH.ordinal()] = Math.floor(p.nvlinkRate() * sinceBoot / 1000);
    out[Metric.GR_ENGINE_ACTIVE.ordinal()] =
        ratio(dip * (0.97 + 0.01 * noise.gaussian(key, GR_ENGINE, step)));
    out[Metric.SM_ACTIVE.ordinal()] =
        ratio(dip * (p.smActive() + 0.015 * noise.gaussian(key, SM_ACTIVE, step)));
    out[Metric.SM_OCCUPANCY.ordinal()] =
        ratio(dip * (p.smOccupancy() + 0.02 * noise.gaussian(key, OCCUPANCY, step)));
    out[Metric.TENSOR_ACTIVE.ordinal()] =
        ratio(dip * (p.tensorActive() + 0.03 * noise.gaussian(key, TENSOR, step)));
    out[Metric.DRAM_ACTIVE.ordinal()] =
        ratio(dip * (p.dramActive() + 0.02 * noise.gaussian(key, DRAM, step)));
  }

  /** Returns true if the GPU dips in second {@code step}; never in two seconds running. */
  private boolean dipsAt(long key, long step) {
    return noise.uniform(key, DIP, step) < DIP_PROBABILITY
        && noise.uniform(key, DIP, step - 1) >= DIP_PROBABILITY;
  }

  private void idle(GpuProfile p, long step, long sinceBoot, double[] out) {
    long key = p.key();
    long gpuTemp = Math.round(p.baseTemp() + 0.4 * noise.gaussian(key, TEMP, step));
    out[Metric.GPU_TEMP.ordinal()] = gpuTemp;
    out[Metric.MEMORY_TEMP.ordinal()] = Math.round(gpuTemp + p.memTempOffset() / 2);
    out[Metric.SM_CLOCK.ordinal()] = IDLE_SM_CLOCK_MHZ;
    out[Metric.POWER_USAGE.ordinal()] =
        milli(p.powerMean() + 1.5 * noise.gaussian(key, POWER, step));
    out[Metric.GPU_UTIL.ordinal()] = 0;
    out[Metric.MEM_COPY_UTIL.ordinal()] = 0;
    out[Metric.CLOCK_EVENTS.ordinal()] = ClockEventReason.GPU_IDLE.mask();
    out[Metric.NVLINK_BANDWIDTH.ordinal()] = Math.floor(p.nvlinkRate() * 3600 * 6);
    out[Metric.GR_ENGINE_ACTIVE.ordinal()] = 0;
    out[Metric.SM_ACTIVE.ordinal()] = 0;
    out[Metric.SM_OCCUPANCY.ordinal()] = 0;
    out[Metric.TENSOR_ACTIVE.ordinal()] = 0;
    out[Metric.DRAM_ACTIVE.ordinal()] = 0;
  }

  /**
   * Sets the spare-row histogram from the remapped rows: each remapped row took a spare row of its
   * own bank, which then has most, no longer all, of its spare rows left.
   */
  static void spareRowBanks(double[] out) {
    long rows =
        (long)
            (out[Metric.CORRECTABLE_REMAPPED_ROWS.ordinal()]
                + out[Metric.UNCORRECTABLE_REMAPPED_ROWS.ordinal()]);
    long high = Math.min(REMAP_BANKS, rows);
    out[Metric.BANKS_REMAP_MAX.ordinal()] = REMAP_BANKS - high;
    out[Metric.BANKS_REMAP_HIGH.ordinal()] = high;
    out[Metric.BANKS_REMAP_PARTIAL.ordinal()] = 0;
    out[Metric.BANKS_REMAP_LOW.ordinal()] = 0;
    out[Metric.BANKS_REMAP_NONE.ordinal()] = 0;
  }

  /** Rounds an SM clock to the 15 MHz steps the GPU runs at. */
  static double clockStep(double mhz) {
    return Math.round(mhz / CLOCK_STEP_MHZ) * CLOCK_STEP_MHZ;
  }

  /** Rounds a power reading to milliwatts, as NVML reports it. */
  static double milli(double watts) {
    return Math.round(watts * 1000) / 1000.0;
  }

  static double ratio(double value) {
    return Math.round(clamp(value, 0, 1) * 1_000_000) / 1_000_000.0;
  }

  static double clamp(double value, double low, double high) {
    return Math.max(low, Math.min(high, value));
  }
}
