package io.bulwark.sim.internal;

import io.bulwark.api.telemetry.DcgmField;

/**
 * The dcgm-exporter fields the simulator serves, in the order dcgm-exporter's counters file lists
 * them, each with the help text and Prometheus type dcgm-exporter declares and whether DCGM reports
 * it as a floating-point value.
 */
enum Metric {
  SM_CLOCK(DcgmField.SM_CLOCK, "gauge", "SM clock frequency (in MHz).", false),
  MEM_CLOCK(DcgmField.MEM_CLOCK, "gauge", "Memory clock frequency (in MHz).", false),
  MEMORY_TEMP(DcgmField.MEMORY_TEMP, "gauge", "Memory temperature (in C).", false),
  GPU_TEMP(DcgmField.GPU_TEMP, "gauge", "GPU temperature (in C).", false),
  POWER_USAGE(DcgmField.POWER_USAGE, "gauge", "Power draw (in W).", true),
  POWER_LIMIT(DcgmField.POWER_LIMIT, "gauge", "Power management limit (in W).", true),
  TOTAL_ENERGY(
      DcgmField.TOTAL_ENERGY, "counter", "Total energy consumption since boot (in mJ).", false),
  PCIE_REPLAY(DcgmField.PCIE_REPLAY_COUNTER, "counter", "Total number of PCIe retries.", false),
  GPU_UTIL(DcgmField.GPU_UTIL, "gauge", "GPU utilization (in %).", false),
  MEM_COPY_UTIL(DcgmField.MEM_COPY_UTIL, "gauge", "Memory utilization (in %).", false),
  XID_ERRORS(DcgmField.XID_ERRORS, "gauge", "Value of the last XID error encountered.", false),
  CLOCK_EVENTS(DcgmField.CLOCKS_EVENT_REASONS, "gauge", "Current clock event reasons.", false),
  FB_FREE(DcgmField.FB_FREE, "gauge", "Framebuffer memory free (in MiB).", false),
  FB_USED(DcgmField.FB_USED, "gauge", "Framebuffer memory used (in MiB).", false),
  ECC_SBE_VOL(
      DcgmField.ECC_SBE_VOL_TOTAL,
      "counter",
      "Total number of single-bit volatile ECC errors.",
      false),
  ECC_DBE_VOL(
      DcgmField.ECC_DBE_VOL_TOTAL,
      "counter",
      "Total number of double-bit volatile ECC errors.",
      false),
  NVLINK_BANDWIDTH(
      DcgmField.NVLINK_BANDWIDTH_TOTAL,
      "counter",
      "Total number of NVLink bandwidth counters for all lanes.",
      false),
  ROW_REMAP_FAILURE(
      DcgmField.ROW_REMAP_FAILURE, "gauge", "Whether remapping of rows has failed.", false),
  ROW_REMAP_PENDING(
      DcgmField.ROW_REMAP_PENDING, "gauge", "Whether remapping of rows is pending.", false),
  GR_ENGINE_ACTIVE(
      DcgmField.GR_ENGINE_ACTIVE, "gauge", "Ratio of time the graphics engine is active.", true),
  SM_ACTIVE(
      DcgmField.SM_ACTIVE,
      "gauge",
      "The ratio of cycles an SM has at least 1 warp assigned.",
      true),
  SM_OCCUPANCY(
      DcgmField.SM_OCCUPANCY, "gauge", "The ratio of number of warps resident on an SM.", true),
  TENSOR_ACTIVE(
      DcgmField.TENSOR_ACTIVE, "gauge", "Ratio of cycles the tensor (HMMA) pipe is active.", true),
  DRAM_ACTIVE(
      DcgmField.DRAM_ACTIVE,
      "gauge",
      "Ratio of cycles the device memory interface is active sending or receiving data.",
      true);

  static final int COUNT = values().length;

  private final String field;
  private final String type;
  private final String help;
  private final boolean decimal;

  Metric(String field, String type, String help, boolean decimal) {
    this.field = field;
    this.type = type;
    this.help = help;
    this.decimal = decimal;
  }

  /**
   * Returns the metric name as served; a node that runs an older exporter serves the clock-event
   * reasons under their former name {@link DcgmField#CLOCK_THROTTLE_REASONS}.
   */
  String field(boolean olderExporter) {
    return this == CLOCK_EVENTS && olderExporter ? DcgmField.CLOCK_THROTTLE_REASONS : field;
  }

  String type() {
    return type;
  }

  /**
   * Returns the help text, which the older exporter words in terms of throttling for the clock
   * reasons.
   */
  String help(boolean olderExporter) {
    return this == CLOCK_EVENTS && olderExporter ? "Current clock throttle reasons." : help;
  }

  /**
   * Returns true if DCGM reports this field as a double (printed with six decimals), false for an
   * integer.
   */
  boolean decimal() {
    return decimal;
  }
}
