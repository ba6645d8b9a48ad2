package io.bulwark.sim.internal;

import io.bulwark.api.telemetry.DcgmField;
import io.bulwark.lib.exposition.DcgmFieldInfo;

/**
 * The dcgm-exporter fields the simulator serves; their Prometheus type, help text and number format
 * come from {@link DcgmFieldInfo}, shared by every page Bulwark serves.
 */
enum Metric {
  SM_CLOCK(DcgmField.SM_CLOCK),
  MEM_CLOCK(DcgmField.MEM_CLOCK),
  MAX_SM_CLOCK(DcgmField.MAX_SM_CLOCK),
  MAX_MEM_CLOCK(DcgmField.MAX_MEM_CLOCK),
  MEMORY_TEMP(DcgmField.MEMORY_TEMP),
  GPU_TEMP(DcgmField.GPU_TEMP),
  SLOWDOWN_TEMP(DcgmField.SLOWDOWN_TEMP),
  SHUTDOWN_TEMP(DcgmField.SHUTDOWN_TEMP),
  GPU_MAX_OP_TEMP(DcgmField.GPU_MAX_OP_TEMP),
  POWER_USAGE(DcgmField.POWER_USAGE),
  POWER_LIMIT(DcgmField.POWER_LIMIT),
  ENFORCED_POWER_LIMIT(DcgmField.ENFORCED_POWER_LIMIT),
  TOTAL_ENERGY(DcgmField.TOTAL_ENERGY),
  POWER_VIOLATION(DcgmField.POWER_VIOLATION),
  THERMAL_VIOLATION(DcgmField.THERMAL_VIOLATION),
  PCIE_REPLAY(DcgmField.PCIE_REPLAY_COUNTER),
  PCIE_LINK_GEN(DcgmField.PCIE_LINK_GEN),
  PCIE_LINK_WIDTH(DcgmField.PCIE_LINK_WIDTH),
  PCIE_MAX_LINK_GEN(DcgmField.PCIE_MAX_LINK_GEN),
  PCIE_MAX_LINK_WIDTH(DcgmField.PCIE_MAX_LINK_WIDTH),
  GPU_UTIL(DcgmField.GPU_UTIL),
  MEM_COPY_UTIL(DcgmField.MEM_COPY_UTIL),
  XID_ERRORS(DcgmField.XID_ERRORS),
  CLOCK_EVENTS(DcgmField.CLOCKS_EVENT_REASONS),
  FB_FREE(DcgmField.FB_FREE),
  FB_USED(DcgmField.FB_USED),
  ECC_SBE_VOL(DcgmField.ECC_SBE_VOL_TOTAL),
  ECC_DBE_VOL(DcgmField.ECC_DBE_VOL_TOTAL),
  ECC_SBE_AGG(DcgmField.ECC_SBE_AGG_TOTAL),
  ECC_DBE_AGG(DcgmField.ECC_DBE_AGG_TOTAL),
  RETIRED_SBE(DcgmField.RETIRED_SBE),
  RETIRED_DBE(DcgmField.RETIRED_DBE),
  RETIRED_PENDING(DcgmField.RETIRED_PENDING),
  NVLINK_CRC_FLIT(DcgmField.NVLINK_CRC_FLIT_ERRORS),
  NVLINK_CRC_DATA(DcgmField.NVLINK_CRC_DATA_ERRORS),
  NVLINK_REPLAY(DcgmField.NVLINK_REPLAY_ERRORS),
  NVLINK_RECOVERY(DcgmField.NVLINK_RECOVERY_ERRORS),
  NVLINK_BANDWIDTH(DcgmField.NVLINK_BANDWIDTH_TOTAL),
  UNCORRECTABLE_REMAPPED_ROWS(DcgmField.UNCORRECTABLE_REMAPPED_ROWS),
  CORRECTABLE_REMAPPED_ROWS(DcgmField.CORRECTABLE_REMAPPED_ROWS),
  ROW_REMAP_FAILURE(DcgmField.ROW_REMAP_FAILURE),
  ROW_REMAP_PENDING(DcgmField.ROW_REMAP_PENDING),
  BANKS_REMAP_MAX(DcgmField.BANKS_REMAP_ROWS_AVAIL_MAX),
  BANKS_REMAP_HIGH(DcgmField.BANKS_REMAP_ROWS_AVAIL_HIGH),
  BANKS_REMAP_PARTIAL(DcgmField.BANKS_REMAP_ROWS_AVAIL_PARTIAL),
  BANKS_REMAP_LOW(DcgmField.BANKS_REMAP_ROWS_AVAIL_LOW),
  BANKS_REMAP_NONE(DcgmField.BANKS_REMAP_ROWS_AVAIL_NONE),
  GR_ENGINE_ACTIVE(DcgmField.GR_ENGINE_ACTIVE),
  SM_ACTIVE(DcgmField.SM_ACTIVE),
  SM_OCCUPANCY(DcgmField.SM_OCCUPANCY),
  TENSOR_ACTIVE(DcgmField.TENSOR_ACTIVE),
  DRAM_ACTIVE(DcgmField.DRAM_ACTIVE);

  static final int COUNT = values().length;

  private final DcgmFieldInfo info;

  Metric(String field) {
    this.info = DcgmFieldInfo.of(field);
  }

  /**
   * Returns the metric name as served; a node that runs an older exporter serves the clock-event
   * reasons under their former name {@link DcgmField#CLOCK_THROTTLE_REASONS}.
   */
  String field(boolean olderExporter) {
    return this == CLOCK_EVENTS && olderExporter ? DcgmField.CLOCK_THROTTLE_REASONS : info.name();
  }

  String type() {
    return info.type();
  }

  /**
   * Returns the help text, which the older exporter words in terms of throttling for the clock
   * reasons.
   */
  String help(boolean olderExporter) {
    return this == CLOCK_EVENTS && olderExporter ? "Current clock throttle reasons." : info.help();
  }

  /** Returns what dcgm-exporter declares for the field, and how it writes its values. */
  DcgmFieldInfo info() {
    return info;
  }
}
