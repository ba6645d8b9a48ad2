package io.bulwark.sim.internal;

import io.bulwark.api.telemetry.ClockEventReason;

/**
 * What each fault kind does to the readings of its GPU. Two parts: the state a fault shows while it
 * holds ({@link #apply}), which goes once it clears, and what it adds to the GPU's cumulative
 * counters ({@link #accumulate}), which stays, so counters never fall when a fault is deleted:
 *
 * <ul>
 *   <li>{@code xid}: the XID gauge holds the fault's code.
 *   <li>{@code ecc-dbe}: 2 volatile double-bit ECC errors (cleared with the fault, as a GPU reset
 *       clears them); the aggregate counter keeps them.
 *   <li>{@code sbe-storm}: single-bit ECC errors (volatile and aggregate) rise at {@code
 *       errorsPerMinute}.
 *   <li>{@code retired-pages-pending}: {@code pages} pages retired for single-bit errors, pending
 *       until the fault clears.
 *   <li>{@code row-remap-pending}: a remap pending and one more correctable remapped row.
 *   <li>{@code row-remap-failure}: the row-remap failure flag is 1 and one bank has no spare row.
 *   <li>{@code spare-rows-low}: {@code banks} banks have few spare rows left.
 *   <li>{@code nvlink-errors}: CRC flit errors at {@code crcErrorsPerSecond} (data errors at a
 *       tenth of it), a replay every 10 s from the start and a recovery every 2 minutes.
 *   <li>{@code pcie-replay}: the PCIe replay counter rises at {@code replaysPerMinute}.
 *   <li>{@code pcie-downtrained}: the link width drops to {@code width} lanes.
 *   <li>{@code thermal-throttle}: HW and SW thermal slowdown reasons, GPU at about 90 C (past the
 *       89 C slowdown, below the 92 C shutdown), memory near 93 C, SM clock 35 % and power 20 %
 *       down, thermal violation time accruing.
 *   <li>{@code power-throttle}: SW power cap reason, power at the limit, SM clock 25 % down, power
 *       violation time accruing.
 *   <li>{@code thermal-margin}: the temperature creeps over a minute to {@code marginCelsius} below
 *       the slowdown temperature and stays there, never reaching it: no throttling yet.
 *   <li>{@code straggler}: SM clock and SM activity {@code slowdownPercent} below the GPU's peers,
 *       no reason bits, temperatures normal.
 *   <li>{@code gpu-missing}: the GPU's lines vanish from the page.
 *   <li>{@code telemetry-stale}: nothing on the page; the node stops answering (see {@link
 *       NodePages}).
 * </ul>
 */
final class FaultEffects {
  static final long DBE_COUNT = 2;
  static final double THERMAL_CLOCK_FACTOR = 0.65;
  static final double POWER_CAP_CLOCK_FACTOR = 0.75;
  static final long THERMAL_MARGIN_RAMP_MILLIS = 60_000;
  static final long NVLINK_REPLAY_EVERY_MILLIS = 10_000;
  static final long NVLINK_RECOVERY_EVERY_MILLIS = 120_000;
  private static final long NANOS_PER_MILLI = 1_000_000;

  private static final int HOT = 200;
  private static final int HOT_MEMORY = 201;
  private static final int AT_LIMIT = 202;
  private static final int WARM = 203;

  private FaultEffects() {}

  /**
   * Applies the state {@code fault} shows while it holds at {@code nowMillis}.
   *
   * @param values the readings, indexed by {@link Metric#ordinal()}, changed in place
   * @return false if the GPU no longer shows on the page
   */
  static boolean apply(Fault fault, GpuProfile profile, Noise noise, long nowMillis, double[] v) {
    long step = Math.floorDiv(nowMillis, 1000);
    long key = profile.key();
    switch (fault.kind()) {
      case XID -> v[Metric.XID_ERRORS.ordinal()] = fault.value();
      case ECC_DBE -> v[Metric.ECC_DBE_VOL.ordinal()] += DBE_COUNT;
      case RETIRED_PAGES_PENDING -> v[Metric.RETIRED_PENDING.ordinal()] = fault.value();
      case ROW_REMAP_PENDING -> v[Metric.ROW_REMAP_PENDING.ordinal()] = 1;
      case ROW_REMAP_FAILURE -> {
        v[Metric.ROW_REMAP_FAILURE.ordinal()] = 1;
        moveBanks(v, Metric.BANKS_REMAP_NONE, 1);
      }
      case SPARE_ROWS_LOW -> moveBanks(v, Metric.BANKS_REMAP_LOW, (long) fault.value());
      case PCIE_DOWNTRAINED ->
          v[Metric.PCIE_LINK_WIDTH.ordinal()] =
              Math.min(v[Metric.PCIE_LINK_WIDTH.ordinal()], fault.value());
      case THERMAL_THROTTLE -> {
        setTemperature(
            v, Math.min(GpuModel.SHUTDOWN_TEMP_C - 1, 90 + 0.6 * noise.gaussian(key, HOT, step)));
        v[Metric.MEMORY_TEMP.ordinal()] =
            Math.round(93 + 0.8 * noise.gaussian(key, HOT_MEMORY, step));
        scaleClock(v, THERMAL_CLOCK_FACTOR);
        v[Metric.POWER_USAGE.ordinal()] = GpuModel.milli(v[Metric.POWER_USAGE.ordinal()] * 0.8);
        addReasons(
            v,
            ClockEventReason.SW_THERMAL_SLOWDOWN.mask()
                | ClockEventReason.HW_THERMAL_SLOWDOWN.mask());
      }
      case POWER_THROTTLE -> {
        v[Metric.POWER_USAGE.ordinal()] =
            GpuModel.milli(
                GpuModel.POWER_LIMIT_W - Math.abs(noise.gaussian(key, AT_LIMIT, step)) * 1.2);
        scaleClock(v, POWER_CAP_CLOCK_FACTOR);
        addReasons(v, ClockEventReason.SW_POWER_CAP.mask());
      }
      case THERMAL_MARGIN -> {
        double ramp =
            Math.min(1.0, (double) (nowMillis - fault.startMillis()) / THERMAL_MARGIN_RAMP_MILLIS);
        double target =
            GpuModel.SLOWDOWN_TEMP_C - fault.value() + 0.4 * noise.gaussian(key, WARM, step);
        double now = v[Metric.GPU_TEMP.ordinal()];
        setTemperature(v, Math.min(GpuModel.SLOWDOWN_TEMP_C - 1, now + (target - now) * ramp));
      }
      case STRAGGLER -> {
        double factor = 1 - fault.value() / 100;
        scaleClock(v, factor);
        v[Metric.SM_ACTIVE.ordinal()] = GpuModel.ratio(v[Metric.SM_ACTIVE.ordinal()] * factor);
      }
      case GPU_MISSING -> {
        return false;
      }
      case SBE_STORM, NVLINK_ERRORS, PCIE_REPLAY, TELEMETRY_STALE -> {
        // only counters, see accumulate; a stale node is NodePages'
      }
    }
    return true;
  }

  /**
   * Adds to the cumulative counters what {@code fault} has added by {@code nowMillis}: from its
   * start until now, or until it cleared. Nothing before it starts.
   */
  static void accumulate(Fault fault, long nowMillis, double[] v) {
    if (nowMillis < fault.startMillis()) {
      return;
    }
    long millis = Math.min(nowMillis, fault.endMillis()) - fault.startMillis();
    switch (fault.kind()) {
      case ECC_DBE -> v[Metric.ECC_DBE_AGG.ordinal()] += DBE_COUNT;
      case SBE_STORM -> {
        long errors = (long) Math.floor(fault.value() * millis / 60_000.0);
        v[Metric.ECC_SBE_VOL.ordinal()] += errors;
        v[Metric.ECC_SBE_AGG.ordinal()] += errors;
      }
      case RETIRED_PAGES_PENDING -> v[Metric.RETIRED_SBE.ordinal()] += fault.value();
      case ROW_REMAP_PENDING -> v[Metric.CORRECTABLE_REMAPPED_ROWS.ordinal()] += 1;
      case NVLINK_ERRORS -> {
        double crc = fault.value() * millis / 1000.0;
        v[Metric.NVLINK_CRC_FLIT.ordinal()] += Math.floor(crc);
        v[Metric.NVLINK_CRC_DATA.ordinal()] += Math.floor(crc / 10);
        v[Metric.NVLINK_REPLAY.ordinal()] += 1 + millis / NVLINK_REPLAY_EVERY_MILLIS;
        v[Metric.NVLINK_RECOVERY.ordinal()] += millis / NVLINK_RECOVERY_EVERY_MILLIS;
      }
      case PCIE_REPLAY ->
          v[Metric.PCIE_REPLAY.ordinal()] += Math.floor(fault.value() * millis / 60_000.0);
      case THERMAL_THROTTLE -> v[Metric.THERMAL_VIOLATION.ordinal()] += millis * NANOS_PER_MILLI;
      case POWER_THROTTLE -> v[Metric.POWER_VIOLATION.ordinal()] += millis * NANOS_PER_MILLI;
      default -> {
        // no counters
      }
    }
  }

  private static void setTemperature(double[] v, double celsius) {
    long temp = Math.round(celsius);
    v[Metric.MEMORY_TEMP.ordinal()] += temp - v[Metric.GPU_TEMP.ordinal()];
    v[Metric.GPU_TEMP.ordinal()] = temp;
  }

  private static void moveBanks(double[] v, Metric to, long banks) {
    long moved = (long) Math.min(banks, v[Metric.BANKS_REMAP_MAX.ordinal()]);
    v[Metric.BANKS_REMAP_MAX.ordinal()] -= moved;
    v[to.ordinal()] += moved;
  }

  private static void scaleClock(double[] v, double factor) {
    v[Metric.SM_CLOCK.ordinal()] = GpuModel.clockStep(v[Metric.SM_CLOCK.ordinal()] * factor);
  }

  private static void addReasons(double[] v, long mask) {
    int i = Metric.CLOCK_EVENTS.ordinal();
    v[i] = (long) v[i] | mask;
  }
}
