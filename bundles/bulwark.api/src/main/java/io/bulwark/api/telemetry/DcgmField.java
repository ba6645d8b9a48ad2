package io.bulwark.api.telemetry;

/**
 * Names of the dcgm-exporter metrics Bulwark reads, spelled as dcgm-exporter exposes them.
 * Telemetry files the older alias {@link #CLOCK_THROTTLE_REASONS} under {@link
 * #CLOCKS_EVENT_REASONS}.
 */
public final class DcgmField {
  public static final String GPU_TEMP = "DCGM_FI_DEV_GPU_TEMP";
  public static final String MEMORY_TEMP = "DCGM_FI_DEV_MEMORY_TEMP";
  public static final String SM_CLOCK = "DCGM_FI_DEV_SM_CLOCK";
  public static final String MEM_CLOCK = "DCGM_FI_DEV_MEM_CLOCK";
  public static final String POWER_USAGE = "DCGM_FI_DEV_POWER_USAGE";
  public static final String POWER_LIMIT = "DCGM_FI_DEV_POWER_MGMT_LIMIT";
  public static final String GPU_UTIL = "DCGM_FI_DEV_GPU_UTIL";
  public static final String MEM_COPY_UTIL = "DCGM_FI_DEV_MEM_COPY_UTIL";
  public static final String XID_ERRORS = "DCGM_FI_DEV_XID_ERRORS";
  public static final String CLOCKS_EVENT_REASONS = "DCGM_FI_DEV_CLOCKS_EVENT_REASONS";
  public static final String CLOCK_THROTTLE_REASONS = "DCGM_FI_DEV_CLOCK_THROTTLE_REASONS";
  public static final String ECC_SBE_VOL_TOTAL = "DCGM_FI_DEV_ECC_SBE_VOL_TOTAL";
  public static final String ECC_DBE_VOL_TOTAL = "DCGM_FI_DEV_ECC_DBE_VOL_TOTAL";
  public static final String ECC_DBE_AGG_TOTAL = "DCGM_FI_DEV_ECC_DBE_AGG_TOTAL";
  public static final String ROW_REMAP_FAILURE = "DCGM_FI_DEV_ROW_REMAP_FAILURE";
  public static final String ROW_REMAP_PENDING = "DCGM_FI_DEV_ROW_REMAP_PENDING";
  public static final String UNCORRECTABLE_REMAPPED_ROWS =
      "DCGM_FI_DEV_UNCORRECTABLE_REMAPPED_ROWS";
  public static final String CORRECTABLE_REMAPPED_ROWS = "DCGM_FI_DEV_CORRECTABLE_REMAPPED_ROWS";
  public static final String PCIE_REPLAY_COUNTER = "DCGM_FI_DEV_PCIE_REPLAY_COUNTER";
  public static final String NVLINK_BANDWIDTH_TOTAL = "DCGM_FI_DEV_NVLINK_BANDWIDTH_TOTAL";
  public static final String FB_USED = "DCGM_FI_DEV_FB_USED";
  public static final String FB_FREE = "DCGM_FI_DEV_FB_FREE";
  public static final String TOTAL_ENERGY = "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION";
  public static final String SM_ACTIVE = "DCGM_FI_PROF_SM_ACTIVE";
  public static final String SM_OCCUPANCY = "DCGM_FI_PROF_SM_OCCUPANCY";
  public static final String TENSOR_ACTIVE = "DCGM_FI_PROF_PIPE_TENSOR_ACTIVE";
  public static final String DRAM_ACTIVE = "DCGM_FI_PROF_DRAM_ACTIVE";
  public static final String GR_ENGINE_ACTIVE = "DCGM_FI_PROF_GR_ENGINE_ACTIVE";

  public static final String MAX_SM_CLOCK = "DCGM_FI_DEV_MAX_SM_CLOCK";
  public static final String MAX_MEM_CLOCK = "DCGM_FI_DEV_MAX_MEM_CLOCK";
  public static final String SLOWDOWN_TEMP = "DCGM_FI_DEV_SLOWDOWN_TEMP";
  public static final String SHUTDOWN_TEMP = "DCGM_FI_DEV_SHUTDOWN_TEMP";
  public static final String GPU_MAX_OP_TEMP = "DCGM_FI_DEV_GPU_MAX_OP_TEMP";
  public static final String GPU_TEMP_LIMIT = "DCGM_FI_DEV_GPU_TEMP_LIMIT";
  public static final String ENFORCED_POWER_LIMIT = "DCGM_FI_DEV_ENFORCED_POWER_LIMIT";
  public static final String POWER_VIOLATION = "DCGM_FI_DEV_POWER_VIOLATION";
  public static final String THERMAL_VIOLATION = "DCGM_FI_DEV_THERMAL_VIOLATION";
  public static final String SYNC_BOOST_VIOLATION = "DCGM_FI_DEV_SYNC_BOOST_VIOLATION";
  public static final String BOARD_LIMIT_VIOLATION = "DCGM_FI_DEV_BOARD_LIMIT_VIOLATION";
  public static final String RELIABILITY_VIOLATION = "DCGM_FI_DEV_RELIABILITY_VIOLATION";
  public static final String ECC_SBE_AGG_TOTAL = "DCGM_FI_DEV_ECC_SBE_AGG_TOTAL";
  public static final String RETIRED_SBE = "DCGM_FI_DEV_RETIRED_SBE";
  public static final String RETIRED_DBE = "DCGM_FI_DEV_RETIRED_DBE";
  public static final String RETIRED_PENDING = "DCGM_FI_DEV_RETIRED_PENDING";
  public static final String BANKS_REMAP_ROWS_AVAIL_MAX = "DCGM_FI_DEV_BANKS_REMAP_ROWS_AVAIL_MAX";
  public static final String BANKS_REMAP_ROWS_AVAIL_HIGH =
      "DCGM_FI_DEV_BANKS_REMAP_ROWS_AVAIL_HIGH";
  public static final String BANKS_REMAP_ROWS_AVAIL_PARTIAL =
      "DCGM_FI_DEV_BANKS_REMAP_ROWS_AVAIL_PARTIAL";
  public static final String BANKS_REMAP_ROWS_AVAIL_LOW = "DCGM_FI_DEV_BANKS_REMAP_ROWS_AVAIL_LOW";
  public static final String BANKS_REMAP_ROWS_AVAIL_NONE =
      "DCGM_FI_DEV_BANKS_REMAP_ROWS_AVAIL_NONE";
  public static final String PCIE_LINK_GEN = "DCGM_FI_DEV_PCIE_LINK_GEN";
  public static final String PCIE_LINK_WIDTH = "DCGM_FI_DEV_PCIE_LINK_WIDTH";
  public static final String PCIE_MAX_LINK_GEN = "DCGM_FI_DEV_PCIE_MAX_LINK_GEN";
  public static final String PCIE_MAX_LINK_WIDTH = "DCGM_FI_DEV_PCIE_MAX_LINK_WIDTH";
  public static final String NVLINK_CRC_FLIT_ERRORS =
      "DCGM_FI_DEV_NVLINK_CRC_FLIT_ERROR_COUNT_TOTAL";
  public static final String NVLINK_CRC_DATA_ERRORS =
      "DCGM_FI_DEV_NVLINK_CRC_DATA_ERROR_COUNT_TOTAL";
  public static final String NVLINK_REPLAY_ERRORS = "DCGM_FI_DEV_NVLINK_REPLAY_ERROR_COUNT_TOTAL";
  public static final String NVLINK_RECOVERY_ERRORS =
      "DCGM_FI_DEV_NVLINK_RECOVERY_ERROR_COUNT_TOTAL";

  private DcgmField() {}

  /**
   * The fields the node page charts for every GPU, in the order it shows them; with the inputs of
   * the detectors, they are what Bulwark's counters file for dcgm-exporter asks for.
   *
   * @since 2.2
   */
  public static final java.util.List<String> NODE_CHARTS =
      java.util.List.of(GPU_UTIL, GPU_TEMP, MEMORY_TEMP, SM_CLOCK, POWER_USAGE, FB_USED);
}
