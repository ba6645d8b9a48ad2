package io.bulwark.telemetry.nvml.internal;

import io.bulwark.api.telemetry.DcgmField;

/**
 * The dcgm-exporter fields the node agent serves, each with the Prometheus type and help text
 * dcgm-exporter declares and whether DCGM reports it as a floating-point value (printed with six
 * decimals) or an integer.
 */
enum AgentMetric {
  SM_CLOCK(DcgmField.SM_CLOCK, "gauge", "SM clock frequency (in MHz).", false),
  MEM_CLOCK(DcgmField.MEM_CLOCK, "gauge", "Memory clock frequency (in MHz).", false),
  MAX_SM_CLOCK(
      DcgmField.MAX_SM_CLOCK, "gauge", "Maximum supported SM clock frequency (in MHz).", false),
  MAX_MEM_CLOCK(
      DcgmField.MAX_MEM_CLOCK,
      "gauge",
      "Maximum supported memory clock frequency (in MHz).",
      false),
  MEMORY_TEMP(DcgmField.MEMORY_TEMP, "gauge", "Memory temperature (in C).", false),
  GPU_TEMP(DcgmField.GPU_TEMP, "gauge", "GPU temperature (in C).", false),
  SLOWDOWN_TEMP(DcgmField.SLOWDOWN_TEMP, "gauge", "Slowdown temperature (in C).", false),
  SHUTDOWN_TEMP(DcgmField.SHUTDOWN_TEMP, "gauge", "Shutdown temperature (in C).", false),
  POWER_USAGE(DcgmField.POWER_USAGE, "gauge", "Power draw (in W).", true),
  POWER_LIMIT(DcgmField.POWER_LIMIT, "gauge", "Power management limit (in W).", true),
  ENFORCED_POWER_LIMIT(
      DcgmField.ENFORCED_POWER_LIMIT,
      "gauge",
      "Effective power limit that the driver enforces (in W).",
      true),
  PCIE_REPLAY(DcgmField.PCIE_REPLAY_COUNTER, "counter", "Total number of PCIe retries.", false),
  GPU_UTIL(DcgmField.GPU_UTIL, "gauge", "GPU utilization (in %).", false),
  MEM_COPY_UTIL(DcgmField.MEM_COPY_UTIL, "gauge", "Memory utilization (in %).", false),
  XID_ERRORS(DcgmField.XID_ERRORS, "gauge", "Value of the last XID error encountered.", false),
  CLOCK_EVENTS(DcgmField.CLOCKS_EVENT_REASONS, "gauge", "Current clock event reasons.", false),
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
  CORRECTABLE_REMAPPED_ROWS(
      DcgmField.CORRECTABLE_REMAPPED_ROWS,
      "counter",
      "Number of remapped rows for correctable errors.",
      false),
  UNCORRECTABLE_REMAPPED_ROWS(
      DcgmField.UNCORRECTABLE_REMAPPED_ROWS,
      "counter",
      "Number of remapped rows for uncorrectable errors.",
      false),
  ROW_REMAP_PENDING(
      DcgmField.ROW_REMAP_PENDING, "gauge", "Whether remapping of rows is pending.", false),
  ROW_REMAP_FAILURE(
      DcgmField.ROW_REMAP_FAILURE, "gauge", "Whether remapping of rows has failed.", false),
  BANKS_REMAP_MAX(
      DcgmField.BANKS_REMAP_ROWS_AVAIL_MAX,
      "gauge",
      "Number of memory banks with maximum row remap availability.",
      false),
  BANKS_REMAP_HIGH(
      DcgmField.BANKS_REMAP_ROWS_AVAIL_HIGH,
      "gauge",
      "Number of memory banks with high row remap availability.",
      false),
  BANKS_REMAP_PARTIAL(
      DcgmField.BANKS_REMAP_ROWS_AVAIL_PARTIAL,
      "gauge",
      "Number of memory banks with partial row remap availability.",
      false),
  BANKS_REMAP_LOW(
      DcgmField.BANKS_REMAP_ROWS_AVAIL_LOW,
      "gauge",
      "Number of memory banks with low row remap availability.",
      false),
  BANKS_REMAP_NONE(
      DcgmField.BANKS_REMAP_ROWS_AVAIL_NONE,
      "gauge",
      "Number of memory banks with no row remap availability.",
      false),
  PCIE_LINK_GEN(DcgmField.PCIE_LINK_GEN, "gauge", "PCIe current link generation.", false),
  PCIE_LINK_WIDTH(DcgmField.PCIE_LINK_WIDTH, "gauge", "PCIe current link width.", false),
  PCIE_MAX_LINK_GEN(DcgmField.PCIE_MAX_LINK_GEN, "gauge", "PCIe maximum link generation.", false),
  PCIE_MAX_LINK_WIDTH(DcgmField.PCIE_MAX_LINK_WIDTH, "gauge", "PCIe maximum link width.", false),
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
      false);

  static final int COUNT = values().length;

  private final String field;
  private final String type;
  private final String help;
  private final boolean decimal;

  AgentMetric(String field, String type, String help, boolean decimal) {
    this.field = field;
    this.type = type;
    this.help = help;
    this.decimal = decimal;
  }

  String field() {
    return field;
  }

  String type() {
    return type;
  }

  String help() {
    return help;
  }

  /** Returns true if DCGM reports this field as a double, false for an integer. */
  boolean decimal() {
    return decimal;
  }
}
