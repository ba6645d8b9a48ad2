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

  private DcgmField() {}
}
