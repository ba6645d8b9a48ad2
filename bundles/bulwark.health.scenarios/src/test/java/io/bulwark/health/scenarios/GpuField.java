package io.bulwark.health.scenarios;

import io.bulwark.api.telemetry.DcgmField;
import java.util.HashMap;
import java.util.Map;

/**
 * The dcgm-exporter fields a scenario page carries, with their Prometheus type, whether DCGM
 * reports them as doubles (six decimals), and whether a driver reload sets them back to zero
 * (volatile counters do; aggregate ECC counts, retired pages and remapped rows live in the InfoROM
 * and survive). Used by the scenario pages and to check the metric names scenario files give.
 */
enum GpuField {
  SM_CLOCK(DcgmField.SM_CLOCK, false, false, false),
  MEM_CLOCK(DcgmField.MEM_CLOCK, false, false, false),
  MAX_SM_CLOCK(DcgmField.MAX_SM_CLOCK, false, false, false),
  MAX_MEM_CLOCK(DcgmField.MAX_MEM_CLOCK, false, false, false),
  MEMORY_TEMP(DcgmField.MEMORY_TEMP, false, false, false),
  GPU_TEMP(DcgmField.GPU_TEMP, false, false, false),
  SLOWDOWN_TEMP(DcgmField.SLOWDOWN_TEMP, false, false, false),
  SHUTDOWN_TEMP(DcgmField.SHUTDOWN_TEMP, false, false, false),
  GPU_MAX_OP_TEMP(DcgmField.GPU_MAX_OP_TEMP, false, false, false),
  GPU_TEMP_LIMIT(DcgmField.GPU_TEMP_LIMIT, false, false, false),
  POWER_USAGE(DcgmField.POWER_USAGE, true, false, false),
  POWER_LIMIT(DcgmField.POWER_LIMIT, true, false, false),
  ENFORCED_POWER_LIMIT(DcgmField.ENFORCED_POWER_LIMIT, true, false, false),
  TOTAL_ENERGY(DcgmField.TOTAL_ENERGY, false, true, true),
  PCIE_REPLAY(DcgmField.PCIE_REPLAY_COUNTER, false, true, true),
  PCIE_LINK_GEN(DcgmField.PCIE_LINK_GEN, false, false, false),
  PCIE_LINK_WIDTH(DcgmField.PCIE_LINK_WIDTH, false, false, false),
  PCIE_MAX_LINK_GEN(DcgmField.PCIE_MAX_LINK_GEN, false, false, false),
  PCIE_MAX_LINK_WIDTH(DcgmField.PCIE_MAX_LINK_WIDTH, false, false, false),
  GPU_UTIL(DcgmField.GPU_UTIL, false, false, false),
  MEM_COPY_UTIL(DcgmField.MEM_COPY_UTIL, false, false, false),
  XID_ERRORS(DcgmField.XID_ERRORS, false, false, true),
  CLOCK_EVENTS(DcgmField.CLOCKS_EVENT_REASONS, false, false, false),
  POWER_VIOLATION(DcgmField.POWER_VIOLATION, false, true, true),
  THERMAL_VIOLATION(DcgmField.THERMAL_VIOLATION, false, true, true),
  SYNC_BOOST_VIOLATION(DcgmField.SYNC_BOOST_VIOLATION, false, true, true),
  BOARD_LIMIT_VIOLATION(DcgmField.BOARD_LIMIT_VIOLATION, false, true, true),
  RELIABILITY_VIOLATION(DcgmField.RELIABILITY_VIOLATION, false, true, true),
  FB_FREE(DcgmField.FB_FREE, false, false, false),
  FB_USED(DcgmField.FB_USED, false, false, false),
  ECC_SBE_VOL(DcgmField.ECC_SBE_VOL_TOTAL, false, true, true),
  ECC_DBE_VOL(DcgmField.ECC_DBE_VOL_TOTAL, false, true, true),
  ECC_SBE_AGG(DcgmField.ECC_SBE_AGG_TOTAL, false, true, false),
  ECC_DBE_AGG(DcgmField.ECC_DBE_AGG_TOTAL, false, true, false),
  RETIRED_SBE(DcgmField.RETIRED_SBE, false, true, false),
  RETIRED_DBE(DcgmField.RETIRED_DBE, false, true, false),
  RETIRED_PENDING(DcgmField.RETIRED_PENDING, false, false, false),
  ROW_REMAP_FAILURE(DcgmField.ROW_REMAP_FAILURE, false, false, false),
  ROW_REMAP_PENDING(DcgmField.ROW_REMAP_PENDING, false, false, false),
  UNCORRECTABLE_REMAPPED_ROWS(DcgmField.UNCORRECTABLE_REMAPPED_ROWS, false, true, false),
  CORRECTABLE_REMAPPED_ROWS(DcgmField.CORRECTABLE_REMAPPED_ROWS, false, true, false),
  BANKS_REMAP_MAX(DcgmField.BANKS_REMAP_ROWS_AVAIL_MAX, false, false, false),
  BANKS_REMAP_HIGH(DcgmField.BANKS_REMAP_ROWS_AVAIL_HIGH, false, false, false),
  BANKS_REMAP_PARTIAL(DcgmField.BANKS_REMAP_ROWS_AVAIL_PARTIAL, false, false, false),
  BANKS_REMAP_LOW(DcgmField.BANKS_REMAP_ROWS_AVAIL_LOW, false, false, false),
  BANKS_REMAP_NONE(DcgmField.BANKS_REMAP_ROWS_AVAIL_NONE, false, false, false),
  NVLINK_BANDWIDTH(DcgmField.NVLINK_BANDWIDTH_TOTAL, false, true, true),
  NVLINK_CRC_FLIT(DcgmField.NVLINK_CRC_FLIT_ERRORS, false, true, true),
  NVLINK_CRC_DATA(DcgmField.NVLINK_CRC_DATA_ERRORS, false, true, true),
  NVLINK_REPLAY(DcgmField.NVLINK_REPLAY_ERRORS, false, true, true),
  NVLINK_RECOVERY(DcgmField.NVLINK_RECOVERY_ERRORS, false, true, true),
  GR_ENGINE_ACTIVE(DcgmField.GR_ENGINE_ACTIVE, true, false, false),
  SM_ACTIVE(DcgmField.SM_ACTIVE, true, false, false),
  SM_OCCUPANCY(DcgmField.SM_OCCUPANCY, true, false, false),
  TENSOR_ACTIVE(DcgmField.TENSOR_ACTIVE, true, false, false),
  DRAM_ACTIVE(DcgmField.DRAM_ACTIVE, true, false, false);

  static final int COUNT = values().length;

  private static final Map<String, GpuField> BY_NAME = new HashMap<>();

  static {
    for (GpuField f : values()) {
      BY_NAME.put(f.field, f);
    }
  }

  private final String field;
  private final boolean decimal;
  private final boolean counter;
  private final boolean resetByDriverReload;

  GpuField(String field, boolean decimal, boolean counter, boolean resetByDriverReload) {
    this.field = field;
    this.decimal = decimal;
    this.counter = counter;
    this.resetByDriverReload = resetByDriverReload;
  }

  /**
   * Returns the field named {@code name} as dcgm-exporter spells it.
   *
   * @throws IllegalArgumentException if no scenario page carries that field
   */
  static GpuField named(String name) {
    GpuField f = BY_NAME.get(name);
    if (f == null) {
      throw new IllegalArgumentException(
          "not a dcgm-exporter field of the scenario pages: " + name);
    }
    return f;
  }

  String field() {
    return field;
  }

  boolean decimal() {
    return decimal;
  }

  boolean counter() {
    return counter;
  }

  boolean resetByDriverReload() {
    return resetByDriverReload;
  }

  String type() {
    return counter ? "counter" : "gauge";
  }
}
