package io.bulwark.agent.internal;

import io.bulwark.api.telemetry.DcgmField;
import io.bulwark.lib.exposition.DcgmFieldInfo;

/**
 * The dcgm-exporter fields the node agent serves; their Prometheus type, help text and number
 * format come from {@link DcgmFieldInfo}, shared by every page Bulwark serves.
 */
enum AgentMetric {
  SM_CLOCK(DcgmField.SM_CLOCK),
  MEM_CLOCK(DcgmField.MEM_CLOCK),
  MAX_SM_CLOCK(DcgmField.MAX_SM_CLOCK),
  MAX_MEM_CLOCK(DcgmField.MAX_MEM_CLOCK),
  MEMORY_TEMP(DcgmField.MEMORY_TEMP),
  GPU_TEMP(DcgmField.GPU_TEMP),
  SLOWDOWN_TEMP(DcgmField.SLOWDOWN_TEMP),
  SHUTDOWN_TEMP(DcgmField.SHUTDOWN_TEMP),
  POWER_USAGE(DcgmField.POWER_USAGE),
  POWER_LIMIT(DcgmField.POWER_LIMIT),
  ENFORCED_POWER_LIMIT(DcgmField.ENFORCED_POWER_LIMIT),
  PCIE_REPLAY(DcgmField.PCIE_REPLAY_COUNTER),
  GPU_UTIL(DcgmField.GPU_UTIL),
  MEM_COPY_UTIL(DcgmField.MEM_COPY_UTIL),
  XID_ERRORS(DcgmField.XID_ERRORS),
  CLOCK_EVENTS(DcgmField.CLOCKS_EVENT_REASONS),
  POWER_VIOLATION(DcgmField.POWER_VIOLATION),
  THERMAL_VIOLATION(DcgmField.THERMAL_VIOLATION),
  ECC_SBE_VOL(DcgmField.ECC_SBE_VOL_TOTAL),
  ECC_DBE_VOL(DcgmField.ECC_DBE_VOL_TOTAL),
  ECC_SBE_AGG(DcgmField.ECC_SBE_AGG_TOTAL),
  ECC_DBE_AGG(DcgmField.ECC_DBE_AGG_TOTAL),
  RETIRED_SBE(DcgmField.RETIRED_SBE),
  RETIRED_DBE(DcgmField.RETIRED_DBE),
  RETIRED_PENDING(DcgmField.RETIRED_PENDING),
  CORRECTABLE_REMAPPED_ROWS(DcgmField.CORRECTABLE_REMAPPED_ROWS),
  UNCORRECTABLE_REMAPPED_ROWS(DcgmField.UNCORRECTABLE_REMAPPED_ROWS),
  ROW_REMAP_PENDING(DcgmField.ROW_REMAP_PENDING),
  ROW_REMAP_FAILURE(DcgmField.ROW_REMAP_FAILURE),
  BANKS_REMAP_MAX(DcgmField.BANKS_REMAP_ROWS_AVAIL_MAX),
  BANKS_REMAP_HIGH(DcgmField.BANKS_REMAP_ROWS_AVAIL_HIGH),
  BANKS_REMAP_PARTIAL(DcgmField.BANKS_REMAP_ROWS_AVAIL_PARTIAL),
  BANKS_REMAP_LOW(DcgmField.BANKS_REMAP_ROWS_AVAIL_LOW),
  BANKS_REMAP_NONE(DcgmField.BANKS_REMAP_ROWS_AVAIL_NONE),
  PCIE_LINK_GEN(DcgmField.PCIE_LINK_GEN),
  PCIE_LINK_WIDTH(DcgmField.PCIE_LINK_WIDTH),
  PCIE_MAX_LINK_GEN(DcgmField.PCIE_MAX_LINK_GEN),
  PCIE_MAX_LINK_WIDTH(DcgmField.PCIE_MAX_LINK_WIDTH),
  NVLINK_CRC_FLIT(DcgmField.NVLINK_CRC_FLIT_ERRORS),
  NVLINK_CRC_DATA(DcgmField.NVLINK_CRC_DATA_ERRORS),
  NVLINK_REPLAY(DcgmField.NVLINK_REPLAY_ERRORS),
  NVLINK_RECOVERY(DcgmField.NVLINK_RECOVERY_ERRORS);

  static final int COUNT = values().length;

  private final DcgmFieldInfo info;

  AgentMetric(String field) {
    this.info = DcgmFieldInfo.of(field);
  }

  String field() {
    return info.name();
  }

  String type() {
    return info.type();
  }

  String help() {
    return info.help();
  }

  /** Returns what dcgm-exporter declares for the field, and how it writes its values. */
  DcgmFieldInfo info() {
    return info;
  }
}
