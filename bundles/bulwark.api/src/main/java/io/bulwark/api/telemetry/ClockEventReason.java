package io.bulwark.api.telemetry;

/**
 * Bits of the clock-event (formerly clock-throttle) reasons bitmask that NVML and dcgm-exporter
 * report in {@link DcgmField#CLOCKS_EVENT_REASONS}, with NVML's values.
 */
public enum ClockEventReason {
  GPU_IDLE(0x1),
  APPLICATIONS_CLOCKS_SETTING(0x2),
  SW_POWER_CAP(0x4),
  HW_SLOWDOWN(0x8),
  SYNC_BOOST(0x10),
  SW_THERMAL_SLOWDOWN(0x20),
  HW_THERMAL_SLOWDOWN(0x40),
  HW_POWER_BRAKE_SLOWDOWN(0x80),
  DISPLAY_CLOCK_SETTING(0x100);

  private final long mask;

  ClockEventReason(long mask) {
    this.mask = mask;
  }

  /** Returns the bit of this reason. */
  public long mask() {
    return mask;
  }

  /** Returns true if this reason's bit is set in {@code bitmask}. */
  public boolean isSet(long bitmask) {
    return (bitmask & mask) != 0;
  }
}
