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
  MAX_SM_CLOCK(DcgmField.MAX_SM_CLOCK, "gauge", "Maximum supported SM clock (in MHz).", false),
  MAX_MEM_CLOCK(
      DcgmField.MAX_MEM_CLOCK, "gauge", "Maximum supported memory clock (in MHz).", false),
  MEMORY_TEMP(DcgmField.MEMORY_TEMP, "gauge", "Memory temperature (in C).", false),
  GPU_TEMP(DcgmField.GPU_TEMP, "gauge", "GPU temperature (in C).", false),
  SLOWDOWN_TEMP(
      DcgmField.SLOWDOWN_TEMP, "gauge", "Slowdown temperature for the device (in C).", false),
  SHUTDOWN_TEMP(
      DcgmField.SHUTDOWN_TEMP, "gauge", "Shutdown temperature for the device (in C).", false),
  GPU_MAX_OP_TEMP(
      DcgmField.GPU_MAX_OP_TEMP,
      "gauge",
      "Maximum operating temperature of the GPU (in C).",
      false),
  POWER_USAGE(DcgmField.POWER_USAGE, "gauge", "Power draw (in W).", true),
  POWER_LIMIT(DcgmField.POWER_LIMIT, "gauge", "Power management limit (in W).", true),
  ENFORCED_POWER_LIMIT(
      DcgmField.ENFORCED_POWER_LIMIT,
      "gauge",
      "Power limit the driver enforces after all limiters (in W).",
      true),
  TOTAL_ENERGY(
      DcgmField.TOTAL_ENERGY, "counter", "Total energy consumption since boot (in mJ).", false),
  POWER_VIOLATION(
      DcgmField.POWER_VIOLATION,
      "counter",
      "Throttling duration due to power constraints (in ns).",
      false),
  THERMAL_VIOLATION(
      DcgmField.THERMAL_VIOLATION,
      "counter",
      "Throttling duration due to thermal constraints (in ns).",
      false),
  PCIE_REPLAY(DcgmField.PCIE_REPLAY_COUNTER, "counter", "Total number of PCIe retries.", false),
  PCIE_LINK_GEN(DcgmField.PCIE_LINK_GEN, "gauge", "PCIe current link generation.", false),
  PCIE_LINK_WIDTH(DcgmField.PCIE_LINK_WIDTH, "gauge", "PCIe current link width.", false),
  PCIE_MAX_LINK_GEN(DcgmField.PCIE_MAX_LINK_GEN, "gauge", "PCIe maximum link generation.", false),
  PCIE_MAX_LINK_WIDTH(DcgmField.PCIE_MAX_LINK_WIDTH, "gauge", "PCIe maximum link width.", false),
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
  ECC_SBE_AGG(
      DcgmField.ECC_SBE_AGG_TOTAL,
      "counter",
      "Total number of single-bit persistent ECC errors.",
      false),
  ECC_DBE_AGG(
      DcgmField.ECC_DBE_AGG_TOTAL,
      "counter",
      "Total number of double-bit persistent ECC errors.",
      false),
  RETIRED_SBE(
      DcgmField.RETIRED_SBE,
      "counter",
      "Total number of retired pages due to single-bit errors.",
      false),
  RETIRED_DBE(
      DcgmField.RETIRED_DBE,
      "counter",
      "Total number of retired pages due to double-bit errors.",
      false),
  RETIRED_PENDING(
      DcgmField.RETIRED_PENDING, "counter", "Total number of pages pending retirement.", false),
  NVLINK_CRC_FLIT(
      DcgmField.NVLINK_CRC_FLIT_ERRORS,
      "counter",
      "Total number of NVLink flow-control CRC errors.",
      false),
  NVLINK_CRC_DATA(
      DcgmField.NVLINK_CRC_DATA_ERRORS,
      "counter",
      "Total number of NVLink data CRC errors.",
      false),
  NVLINK_REPLAY(
      DcgmField.NVLINK_REPLAY_ERRORS, "counter", "Total number of NVLink retries.", false),
  NVLINK_RECOVERY(
      DcgmField.NVLINK_RECOVERY_ERRORS,
      "counter",
      "Total number of NVLink recovery errors.",
      false),
  NVLINK_BANDWIDTH(
      DcgmField.NVLINK_BANDWIDTH_TOTAL,
      "counter",
      "Total number of NVLink bandwidth counters for all lanes.",
      false),
  UNCORRECTABLE_REMAPPED_ROWS(
      DcgmField.UNCORRECTABLE_REMAPPED_ROWS,
      "counter",
      "Number of remapped rows for uncorrectable errors.",
      false),
  CORRECTABLE_REMAPPED_ROWS(
      DcgmField.CORRECTABLE_REMAPPED_ROWS,
      "counter",
      "Number of remapped rows for correctable errors.",
      false),
  ROW_REMAP_FAILURE(
      DcgmField.ROW_REMAP_FAILURE, "gauge", "Whether remapping of rows has failed.", false),
  ROW_REMAP_PENDING(
      DcgmField.ROW_REMAP_PENDING, "gauge", "Whether remapping of rows is pending.", false),
  BANKS_REMAP_MAX(
      DcgmField.BANKS_REMAP_ROWS_AVAIL_MAX,
      "gauge",
      "Number of memory banks with all their spare rows available.",
      false),
  BANKS_REMAP_HIGH(
      DcgmField.BANKS_REMAP_ROWS_AVAIL_HIGH,
      "gauge",
      "Number of memory banks with most of their spare rows available.",
      false),
  BANKS_REMAP_PARTIAL(
      DcgmField.BANKS_REMAP_ROWS_AVAIL_PARTIAL,
      "gauge",
      "Number of memory banks with some of their spare rows available.",
      false),
  BANKS_REMAP_LOW(
      DcgmField.BANKS_REMAP_ROWS_AVAIL_LOW,
      "gauge",
      "Number of memory banks with few spare rows available.",
      false),
  BANKS_REMAP_NONE(
      DcgmField.BANKS_REMAP_ROWS_AVAIL_NONE,
      "gauge",
      "Number of memory banks with no spare rows available.",
      false),
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
