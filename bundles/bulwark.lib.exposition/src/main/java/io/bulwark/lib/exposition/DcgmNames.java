package io.bulwark.lib.exposition;

import io.bulwark.api.telemetry.DcgmField;
import java.util.Map;

/**
 * The two generations of DCGM field names. DCGM 4.6 renamed 21 of the fields Bulwark reads (the old
 * names stay as deprecated aliases with the same field IDs, types and units: {@code
 * DCGM_FI_DEV_GPU_TEMP} is now {@code DCGM_FI_DEV_GPU_TEMP_CELSIUS}, field 150), and DCGM 4.6.1
 * adds base-unit fields beside the old ones ({@code DCGM_FI_DEV_SM_CLOCK_HERTZ}, field 1603, in Hz
 * where {@code DCGM_FI_DEV_SM_CLOCK}, field 100, is in MHz). A dcgm-exporter page carries whichever
 * names its counters file asks for. Bulwark files every sample under the name it reads ({@link
 * DcgmField}), converting the unit where it changed.
 *
 * <p>Source: NVIDIA's go-dcgm v1.4611.0 ({@code pkg/dcgm/const_fields.go}, the deprecated aliases
 * and {@code legacyDCGMFields}) and DCGM v4.6.0 ({@code dcgmlib/dcgm_fields.h}), 2026.
 */
public final class DcgmNames {
  /**
   * A DCGM 4.x name: the name Bulwark files it under, and the conversion to that name's unit (times
   * {@code multiplier}, divided by {@code divisor}: exact for whole numbers of the unit).
   */
  public record Alias(String dcgm4Name, String bulwarkName, double multiplier, double divisor) {
    /** Returns {@code value}, read under the DCGM 4.x name, in the unit of Bulwark's name. */
    public double toBulwarkUnit(double value) {
      return value * multiplier / divisor;
    }

    /** Returns {@code value}, in the unit of Bulwark's name, in the unit of the DCGM 4.x name. */
    public double toDcgm4Unit(double value) {
      return value * divisor / multiplier;
    }

    /** Returns true if the unit is the same under both names. */
    public boolean sameUnit() {
      return multiplier == 1.0 && divisor == 1.0;
    }
  }

  private static final Map<String, Alias> DCGM4 =
      Map.ofEntries(
          renamed("DCGM_FI_DEV_GPU_TEMP_CELSIUS", DcgmField.GPU_TEMP),
          renamed("DCGM_FI_DEV_MEMORY_TEMP_CELSIUS", DcgmField.MEMORY_TEMP),
          renamed("DCGM_FI_DEV_GPU_TEMP_SLOWDOWN_CELSIUS", DcgmField.SLOWDOWN_TEMP),
          renamed("DCGM_FI_DEV_BOARD_POWER_WATTS", DcgmField.POWER_USAGE),
          renamed("DCGM_FI_DEV_BOARD_POWER_LIMIT_REQUESTED_WATTS", DcgmField.POWER_LIMIT),
          renamed("DCGM_FI_DEV_PCIE_REPLAY_TOTAL", DcgmField.PCIE_REPLAY_COUNTER),
          // Still a percentage from 0 to 100, whatever its new name says.
          renamed("DCGM_FI_DEV_GPU_UTIL_RATIO", DcgmField.GPU_UTIL),
          renamed("DCGM_FI_DEV_XID_ERROR", DcgmField.XID_ERRORS),
          renamed("DCGM_FI_DEV_PAGE_RETIRED_SBE_TOTAL", DcgmField.RETIRED_SBE),
          renamed("DCGM_FI_DEV_PAGE_RETIRED_DBE_TOTAL", DcgmField.RETIRED_DBE),
          renamed("DCGM_FI_DEV_PAGE_RETIRED_PENDING", DcgmField.RETIRED_PENDING),
          renamed(
              "DCGM_FI_DEV_ROW_REMAP_UNCORRECTABLE_TOTAL", DcgmField.UNCORRECTABLE_REMAPPED_ROWS),
          renamed("DCGM_FI_DEV_ROW_REMAP_CORRECTABLE_TOTAL", DcgmField.CORRECTABLE_REMAPPED_ROWS),
          renamed("DCGM_FI_DEV_ROW_REMAP_FAILED", DcgmField.ROW_REMAP_FAILURE),
          renamed("DCGM_FI_DEV_BANK_REMAP_AVAIL_LOW", DcgmField.BANKS_REMAP_ROWS_AVAIL_LOW),
          renamed("DCGM_FI_DEV_BANK_REMAP_AVAIL_NONE", DcgmField.BANKS_REMAP_ROWS_AVAIL_NONE),
          renamed("DCGM_FI_DEV_NVLINK_CRC_FLIT_ERROR_TOTAL", DcgmField.NVLINK_CRC_FLIT_ERRORS),
          renamed("DCGM_FI_DEV_NVLINK_CRC_DATA_ERROR_TOTAL", DcgmField.NVLINK_CRC_DATA_ERRORS),
          renamed("DCGM_FI_DEV_NVLINK_REPLAY_ERROR_TOTAL", DcgmField.NVLINK_REPLAY_ERRORS),
          renamed("DCGM_FI_DEV_NVLINK_RECOVERY_ERROR_TOTAL", DcgmField.NVLINK_RECOVERY_ERRORS),
          renamed("DCGM_FI_PROF_SM_UTIL_RATIO", DcgmField.SM_ACTIVE),
          // DCGM 4.6.1's base-unit fields: new field IDs, in other units than the old ones.
          scaled("DCGM_FI_DEV_SM_CLOCK_HERTZ", DcgmField.SM_CLOCK, 1, 1e6),
          scaled("DCGM_FI_DEV_MEMORY_CLOCK_HERTZ", DcgmField.MEM_CLOCK, 1, 1e6),
          scaled("DCGM_FI_DEV_SM_MAX_CLOCK_HERTZ", DcgmField.MAX_SM_CLOCK, 1, 1e6),
          scaled("DCGM_FI_DEV_MEMORY_MAX_CLOCK_HERTZ", DcgmField.MAX_MEM_CLOCK, 1, 1e6),
          scaled("DCGM_FI_DEV_GPU_ENERGY_JOULES_TOTAL", DcgmField.TOTAL_ENERGY, 1e3, 1));

  private static final Map<String, String> DCGM3_ONLY = dcgm3Only();

  private DcgmNames() {}

  /**
   * Returns the alias {@code name} is, if it is a DCGM 4.x name of a field Bulwark reads; else
   * null.
   */
  public static Alias dcgm4(String name) {
    return DCGM4.get(name);
  }

  /**
   * Returns true if {@code name} is a name DCGM 4.x deprecated (a DCGM 3.x name that 4.x renamed or
   * gave a base-unit successor).
   */
  public static boolean isDcgm3Only(String name) {
    return DCGM3_ONLY.containsKey(name);
  }

  /** Returns the DCGM 4.x name of the field Bulwark reads as {@code bulwarkName}, or null. */
  public static String dcgm4NameOf(String bulwarkName) {
    return DCGM3_ONLY.get(bulwarkName);
  }

  /** Returns every DCGM 4.x alias. */
  public static Iterable<Alias> aliases() {
    return DCGM4.values();
  }

  private static Map<String, String> dcgm3Only() {
    Map<String, String> old = new java.util.HashMap<>();
    for (Alias alias : DCGM4.values()) {
      old.put(alias.bulwarkName(), alias.dcgm4Name());
    }
    return Map.copyOf(old);
  }

  private static Map.Entry<String, Alias> renamed(String dcgm4, String bulwark) {
    return Map.entry(dcgm4, new Alias(dcgm4, bulwark, 1.0, 1.0));
  }

  private static Map.Entry<String, Alias> scaled(
      String dcgm4, String bulwark, double multiplier, double divisor) {
    return Map.entry(dcgm4, new Alias(dcgm4, bulwark, multiplier, divisor));
  }
}
