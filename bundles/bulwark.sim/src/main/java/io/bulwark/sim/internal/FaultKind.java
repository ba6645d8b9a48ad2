package io.bulwark.sim.internal;

import io.bulwark.api.health.FindingKind;
import io.bulwark.api.telemetry.ClockEventReason;
import java.util.Optional;

/**
 * The faults the simulator can put on a GPU, spelled as the findings they should raise ({@link
 * FindingKind}), and what each does to the GPU's readings. Each kind touches only its own fields:
 *
 * <ul>
 *   <li>{@code xid}: the XID gauge holds the fault's code.
 *   <li>{@code ecc-dbe}: the volatile double-bit ECC counter is non-zero.
 *   <li>{@code row-remap-failure}: the row-remap failure flag is 1.
 *   <li>{@code thermal-throttle}: HW and SW thermal slowdown reasons, GPU near 90 C, memory near 93
 *       C, SM clock 35 % down and power 20 % down.
 *   <li>{@code power-throttle}: SW power cap reason, power at the limit, SM clock 25 % down.
 *   <li>{@code straggler}: SM clock and SM activity 30 % below peers, no reason bits, temperatures
 *       normal.
 *   <li>{@code gpu-missing}: the GPU's lines vanish from the page.
 * </ul>
 */
enum FaultKind {
  XID(FindingKind.XID),
  ECC_DBE(FindingKind.ECC_DBE),
  ROW_REMAP_FAILURE(FindingKind.ROW_REMAP_FAILURE),
  THERMAL_THROTTLE(FindingKind.THERMAL_THROTTLE),
  POWER_THROTTLE(FindingKind.POWER_THROTTLE),
  STRAGGLER(FindingKind.STRAGGLER),
  GPU_MISSING(FindingKind.GPU_MISSING);

  /**
   * The XID code of an {@code xid} fault when none is given: 79, the GPU has fallen off the bus.
   */
  static final int DEFAULT_XID = 79;

  /** The volatile double-bit ECC count an {@code ecc-dbe} fault shows. */
  static final long DBE_COUNT = 2;

  static final double THERMAL_CLOCK_FACTOR = 0.65;
  static final double POWER_CAP_CLOCK_FACTOR = 0.75;
  static final double STRAGGLER_FACTOR = 0.70;

  private static final int HOT = 200;
  private static final int HOT_MEMORY = 201;
  private static final int AT_LIMIT = 202;

  private final String word;

  FaultKind(String word) {
    this.word = word;
  }

  /**
   * Returns the kind as the control API and the findings spell it, e.g. {@code thermal-throttle}.
   */
  String word() {
    return word;
  }

  /** Returns the kind spelled {@code word}, or empty. */
  static Optional<FaultKind> parse(String word) {
    for (FaultKind kind : values()) {
      if (kind.word.equals(word)) {
        return Optional.of(kind);
      }
    }
    return Optional.empty();
  }

  /**
   * Applies this fault to the readings of its GPU at {@code nowMillis}.
   *
   * @param values the readings, indexed by {@link Metric#ordinal()}, changed in place
   * @return false if the GPU no longer shows on the page
   */
  boolean apply(Fault fault, GpuProfile profile, Noise noise, long nowMillis, double[] values) {
    long step = Math.floorDiv(nowMillis, 1000);
    long key = profile.key();
    switch (this) {
      case XID -> values[Metric.XID_ERRORS.ordinal()] = fault.xid();
      case ECC_DBE -> values[Metric.ECC_DBE_VOL.ordinal()] = DBE_COUNT;
      case ROW_REMAP_FAILURE -> values[Metric.ROW_REMAP_FAILURE.ordinal()] = 1;
      case THERMAL_THROTTLE -> {
        values[Metric.GPU_TEMP.ordinal()] = Math.round(90 + 0.8 * noise.gaussian(key, HOT, step));
        values[Metric.MEMORY_TEMP.ordinal()] =
            Math.round(93 + 0.8 * noise.gaussian(key, HOT_MEMORY, step));
        scale(values, Metric.SM_CLOCK, THERMAL_CLOCK_FACTOR);
        values[Metric.POWER_USAGE.ordinal()] =
            GpuModel.milli(values[Metric.POWER_USAGE.ordinal()] * 0.8);
        addReasons(
            values,
            ClockEventReason.SW_THERMAL_SLOWDOWN.mask()
                | ClockEventReason.HW_THERMAL_SLOWDOWN.mask());
      }
      case POWER_THROTTLE -> {
        values[Metric.POWER_USAGE.ordinal()] =
            GpuModel.milli(
                GpuModel.POWER_LIMIT_W - Math.abs(noise.gaussian(key, AT_LIMIT, step)) * 1.2);
        scale(values, Metric.SM_CLOCK, POWER_CAP_CLOCK_FACTOR);
        addReasons(values, ClockEventReason.SW_POWER_CAP.mask());
      }
      case STRAGGLER -> {
        scale(values, Metric.SM_CLOCK, STRAGGLER_FACTOR);
        values[Metric.SM_ACTIVE.ordinal()] =
            GpuModel.ratio(values[Metric.SM_ACTIVE.ordinal()] * STRAGGLER_FACTOR);
      }
      case GPU_MISSING -> {
        return false;
      }
    }
    return true;
  }

  private static void scale(double[] values, Metric clock, double factor) {
    values[clock.ordinal()] = GpuModel.clockStep(values[clock.ordinal()] * factor);
  }

  private static void addReasons(double[] values, long mask) {
    int i = Metric.CLOCK_EVENTS.ordinal();
    values[i] = (long) values[i] | mask;
  }
}
