package io.bulwark.sim.internal;

import io.bulwark.api.telemetry.DcgmField;
import io.bulwark.lib.exposition.DcgmFieldInfo;

/**
 * The dcgm-exporter fields the simulator models; their Prometheus type, help text and number format
 * come from {@link DcgmFieldInfo}, shared by every page Bulwark serves. A node serves those of
 * Bulwark's counters file ({@link #COUNTERS_FILE}, what dcgm-exporter started with that file
 * serves), or all of them.
 */
enum Metric {
  SM_CLOCK(DcgmField.SM_CLOCK, true),
  MEM_CLOCK(DcgmField.MEM_CLOCK, false),
  MAX_SM_CLOCK(DcgmField.MAX_SM_CLOCK, false),
  MAX_MEM_CLOCK(DcgmField.MAX_MEM_CLOCK, false),
  MEMORY_TEMP(DcgmField.MEMORY_TEMP, true),
  GPU_TEMP(DcgmField.GPU_TEMP, true),
  SLOWDOWN_TEMP(DcgmField.SLOWDOWN_TEMP, true),
  SHUTDOWN_TEMP(DcgmField.SHUTDOWN_TEMP, false),
  GPU_MAX_OP_TEMP(DcgmField.GPU_MAX_OP_TEMP, false),
  POWER_USAGE(DcgmField.POWER_USAGE, true),
  POWER_LIMIT(DcgmField.POWER_LIMIT, true),
  ENFORCED_POWER_LIMIT(DcgmField.ENFORCED_POWER_LIMIT, false),
  TOTAL_ENERGY(DcgmField.TOTAL_ENERGY, false),
  POWER_VIOLATION(DcgmField.POWER_VIOLATION, true),
  THERMAL_VIOLATION(DcgmField.THERMAL_VIOLATION, true),
  PCIE_REPLAY(DcgmField.PCIE_REPLAY_COUNTER, true),
  PCIE_LINK_GEN(DcgmField.PCIE_LINK_GEN, true),
  PCIE_LINK_WIDTH(DcgmField.PCIE_LINK_WIDTH, true),
  PCIE_MAX_LINK_GEN(DcgmField.PCIE_MAX_LINK_GEN, true),
  PCIE_MAX_LINK_WIDTH(DcgmField.PCIE_MAX_LINK_WIDTH, true),
  GPU_UTIL(DcgmField.GPU_UTIL, true),
  MEM_COPY_UTIL(DcgmField.MEM_COPY_UTIL, false),
  XID_ERRORS(DcgmField.XID_ERRORS, true),
  CLOCK_EVENTS(DcgmField.CLOCKS_EVENT_REASONS, true),
  FB_FREE(DcgmField.FB_FREE, false),
  FB_USED(DcgmField.FB_USED, true),
  ECC_SBE_VOL(DcgmField.ECC_SBE_VOL_TOTAL, true),
  ECC_DBE_VOL(DcgmField.ECC_DBE_VOL_TOTAL, true),
  ECC_SBE_AGG(DcgmField.ECC_SBE_AGG_TOTAL, false),
  ECC_DBE_AGG(DcgmField.ECC_DBE_AGG_TOTAL, true),
  RETIRED_SBE(DcgmField.RETIRED_SBE, true),
  RETIRED_DBE(DcgmField.RETIRED_DBE, true),
  RETIRED_PENDING(DcgmField.RETIRED_PENDING, true),
  NVLINK_CRC_FLIT(DcgmField.NVLINK_CRC_FLIT_ERRORS, true),
  NVLINK_CRC_DATA(DcgmField.NVLINK_CRC_DATA_ERRORS, true),
  NVLINK_REPLAY(DcgmField.NVLINK_REPLAY_ERRORS, true),
  NVLINK_RECOVERY(DcgmField.NVLINK_RECOVERY_ERRORS, true),
  NVLINK_BANDWIDTH(DcgmField.NVLINK_BANDWIDTH_TOTAL, false),
  UNCORRECTABLE_REMAPPED_ROWS(DcgmField.UNCORRECTABLE_REMAPPED_ROWS, true),
  CORRECTABLE_REMAPPED_ROWS(DcgmField.CORRECTABLE_REMAPPED_ROWS, true),
  ROW_REMAP_FAILURE(DcgmField.ROW_REMAP_FAILURE, true),
  ROW_REMAP_PENDING(DcgmField.ROW_REMAP_PENDING, true),
  BANKS_REMAP_MAX(DcgmField.BANKS_REMAP_ROWS_AVAIL_MAX, false),
  BANKS_REMAP_HIGH(DcgmField.BANKS_REMAP_ROWS_AVAIL_HIGH, false),
  BANKS_REMAP_PARTIAL(DcgmField.BANKS_REMAP_ROWS_AVAIL_PARTIAL, false),
  BANKS_REMAP_LOW(DcgmField.BANKS_REMAP_ROWS_AVAIL_LOW, true),
  BANKS_REMAP_NONE(DcgmField.BANKS_REMAP_ROWS_AVAIL_NONE, true),
  GR_ENGINE_ACTIVE(DcgmField.GR_ENGINE_ACTIVE, false),
  SM_ACTIVE(DcgmField.SM_ACTIVE, true),
  SM_OCCUPANCY(DcgmField.SM_OCCUPANCY, false),
  TENSOR_ACTIVE(DcgmField.TENSOR_ACTIVE, false),
  DRAM_ACTIVE(DcgmField.DRAM_ACTIVE, false);

  static final int COUNT = values().length;

  /** The fields Bulwark's counters file asks dcgm-exporter for, in page order. */
  static final Metric[] COUNTERS_FILE =
      java.util.Arrays.stream(values()).filter(m -> m.inCountersFile).toArray(Metric[]::new);

  private final DcgmFieldInfo info;
  private final boolean inCountersFile;

  Metric(String field, boolean inCountersFile) {
    this.info = DcgmFieldInfo.of(field);
    this.inCountersFile = inCountersFile;
  }

  /**
   * Returns true if Bulwark reads the field, so that its counters file for dcgm-exporter ({@code
   * appliance-image/etc/dcgm-exporter/bulwark-counters.csv}) asks for it.
   */
  boolean inCountersFile() {
    return inCountersFile;
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
