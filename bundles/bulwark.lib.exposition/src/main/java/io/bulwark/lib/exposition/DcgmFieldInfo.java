package io.bulwark.lib.exposition;

import io.bulwark.api.telemetry.DcgmField;
import java.util.Map;
import java.util.Objects;

/**
 * What dcgm-exporter declares for one of the fields in {@link DcgmField}: its Prometheus type, its
 * help text, and whether DCGM reports it as a floating-point value (printed with six decimals) or
 * an integer. The one place the simulator and the node agent take these from, so that every page
 * Bulwark serves describes a field, and writes its values, the same way.
 */
public record DcgmFieldInfo(String name, String type, String help, boolean decimal) {
  private static final Map<String, DcgmFieldInfo> KNOWN =
      Map.ofEntries(
          entry(DcgmField.SM_CLOCK, "gauge", "SM clock frequency (in MHz).", false),
          entry(DcgmField.MEM_CLOCK, "gauge", "Memory clock frequency (in MHz).", false),
          entry(
              DcgmField.MAX_SM_CLOCK,
              "gauge",
              "Maximum supported SM clock frequency (in MHz).",
              false),
          entry(
              DcgmField.MAX_MEM_CLOCK,
              "gauge",
              "Maximum supported memory clock frequency (in MHz).",
              false),
          entry(DcgmField.MEMORY_TEMP, "gauge", "Memory temperature (in C).", false),
          entry(DcgmField.GPU_TEMP, "gauge", "GPU temperature (in C).", false),
          entry(DcgmField.SLOWDOWN_TEMP, "gauge", "Slowdown temperature (in C).", false),
          entry(DcgmField.SHUTDOWN_TEMP, "gauge", "Shutdown temperature (in C).", false),
          entry(
              DcgmField.GPU_MAX_OP_TEMP,
              "gauge",
              "Maximum operating temperature of the GPU (in C).",
              false),
          entry(DcgmField.POWER_USAGE, "gauge", "Power draw (in W).", true),
          entry(DcgmField.POWER_LIMIT, "gauge", "Power management limit (in W).", true),
          entry(
              DcgmField.ENFORCED_POWER_LIMIT,
              "gauge",
              "Effective power limit that the driver enforces (in W).",
              true),
          entry(
              DcgmField.TOTAL_ENERGY,
              "counter",
              "Total energy consumption since boot (in mJ).",
              false),
          entry(
              DcgmField.POWER_VIOLATION,
              "counter",
              "Throttling duration due to power constraints (in ns).",
              false),
          entry(
              DcgmField.THERMAL_VIOLATION,
              "counter",
              "Throttling duration due to thermal constraints (in ns).",
              false),
          entry(DcgmField.PCIE_REPLAY_COUNTER, "counter", "Total number of PCIe retries.", false),
          entry(DcgmField.PCIE_LINK_GEN, "gauge", "PCIe current link generation.", false),
          entry(DcgmField.PCIE_LINK_WIDTH, "gauge", "PCIe current link width.", false),
          entry(DcgmField.PCIE_MAX_LINK_GEN, "gauge", "PCIe maximum link generation.", false),
          entry(DcgmField.PCIE_MAX_LINK_WIDTH, "gauge", "PCIe maximum link width.", false),
          entry(DcgmField.GPU_UTIL, "gauge", "GPU utilization (in %).", false),
          entry(DcgmField.MEM_COPY_UTIL, "gauge", "Memory utilization (in %).", false),
          entry(DcgmField.XID_ERRORS, "gauge", "Value of the last XID error encountered.", false),
          entry(DcgmField.CLOCKS_EVENT_REASONS, "gauge", "Current clock event reasons.", false),
          entry(DcgmField.FB_FREE, "gauge", "Framebuffer memory free (in MiB).", false),
          entry(DcgmField.FB_USED, "gauge", "Framebuffer memory used (in MiB).", false),
          entry(
              DcgmField.ECC_SBE_VOL_TOTAL,
              "counter",
              "Total number of single-bit volatile ECC errors.",
              false),
          entry(
              DcgmField.ECC_DBE_VOL_TOTAL,
              "counter",
              "Total number of double-bit volatile ECC errors.",
              false),
          entry(
              DcgmField.ECC_SBE_AGG_TOTAL,
              "counter",
              "Total number of single-bit persistent ECC errors.",
              false),
          entry(
              DcgmField.ECC_DBE_AGG_TOTAL,
              "counter",
              "Total number of double-bit persistent ECC errors.",
              false),
          entry(
              DcgmField.RETIRED_SBE,
              "counter",
              "Total number of retired pages due to single-bit errors.",
              false),
          entry(
              DcgmField.RETIRED_DBE,
              "counter",
              "Total number of retired pages due to double-bit errors.",
              false),
          entry(
              DcgmField.RETIRED_PENDING,
              "counter",
              "Total number of pages pending retirement.",
              false),
          entry(
              DcgmField.NVLINK_CRC_FLIT_ERRORS,
              "counter",
              "Total number of NVLink flow-control CRC errors.",
              false),
          entry(
              DcgmField.NVLINK_CRC_DATA_ERRORS,
              "counter",
              "Total number of NVLink data CRC errors.",
              false),
          entry(
              DcgmField.NVLINK_REPLAY_ERRORS, "counter", "Total number of NVLink retries.", false),
          entry(
              DcgmField.NVLINK_RECOVERY_ERRORS,
              "counter",
              "Total number of NVLink recovery errors.",
              false),
          entry(
              DcgmField.NVLINK_BANDWIDTH_TOTAL,
              "counter",
              "Total number of NVLink bandwidth counters for all lanes.",
              false),
          entry(
              DcgmField.UNCORRECTABLE_REMAPPED_ROWS,
              "counter",
              "Number of remapped rows for uncorrectable errors.",
              false),
          entry(
              DcgmField.CORRECTABLE_REMAPPED_ROWS,
              "counter",
              "Number of remapped rows for correctable errors.",
              false),
          entry(
              DcgmField.ROW_REMAP_FAILURE, "gauge", "Whether remapping of rows has failed.", false),
          entry(
              DcgmField.ROW_REMAP_PENDING, "gauge", "Whether remapping of rows is pending.", false),
          entry(
              DcgmField.BANKS_REMAP_ROWS_AVAIL_MAX,
              "gauge",
              "Number of memory banks with maximum row remap availability.",
              false),
          entry(
              DcgmField.BANKS_REMAP_ROWS_AVAIL_HIGH,
              "gauge",
              "Number of memory banks with high row remap availability.",
              false),
          entry(
              DcgmField.BANKS_REMAP_ROWS_AVAIL_PARTIAL,
              "gauge",
              "Number of memory banks with partial row remap availability.",
              false),
          entry(
              DcgmField.BANKS_REMAP_ROWS_AVAIL_LOW,
              "gauge",
              "Number of memory banks with low row remap availability.",
              false),
          entry(
              DcgmField.BANKS_REMAP_ROWS_AVAIL_NONE,
              "gauge",
              "Number of memory banks with no row remap availability.",
              false),
          entry(
              DcgmField.GR_ENGINE_ACTIVE,
              "gauge",
              "Ratio of time the graphics engine is active.",
              true),
          entry(
              DcgmField.SM_ACTIVE,
              "gauge",
              "The ratio of cycles an SM has at least 1 warp assigned.",
              true),
          entry(
              DcgmField.SM_OCCUPANCY,
              "gauge",
              "The ratio of number of warps resident on an SM.",
              true),
          entry(
              DcgmField.TENSOR_ACTIVE,
              "gauge",
              "Ratio of cycles the tensor (HMMA) pipe is active.",
              true),
          entry(
              DcgmField.DRAM_ACTIVE,
              "gauge",
              "Ratio of cycles the device memory interface is active sending or receiving data.",
              true));

  public DcgmFieldInfo {
    Objects.requireNonNull(name, "name");
    if (!type.equals("gauge") && !type.equals("counter")) {
      throw new IllegalArgumentException("a dcgm-exporter field is a gauge or a counter: " + type);
    }
    Objects.requireNonNull(help, "help");
  }

  /**
   * Returns what dcgm-exporter declares for the field {@code name}.
   *
   * @throws IllegalArgumentException if Bulwark does not know the field
   */
  public static DcgmFieldInfo of(String name) {
    DcgmFieldInfo info = KNOWN.get(name);
    if (info == null) {
      throw new IllegalArgumentException("not a dcgm-exporter field Bulwark knows: " + name);
    }
    return info;
  }

  /**
   * Returns what dcgm-exporter declares for the field {@code name}, or null if Bulwark does not
   * know it.
   */
  public static DcgmFieldInfo find(String name) {
    return KNOWN.get(name);
  }

  /**
   * Appends {@code value} as dcgm-exporter prints this field: with six decimals if it is a
   * floating-point field, else as a whole number.
   */
  public void appendValue(StringBuilder out, double value) {
    if (decimal) {
      ExpositionText.appendDecimal(out, value);
    } else {
      out.append((long) value);
    }
  }

  private static Map.Entry<String, DcgmFieldInfo> entry(
      String name, String type, String help, boolean decimal) {
    return Map.entry(name, new DcgmFieldInfo(name, type, help, decimal));
  }
}
