package io.bulwark.api.health;

import java.util.List;
import java.util.regex.Pattern;

/**
 * The kinds of finding, spelled as the API and the UI spell them. A kind is a lower-case word or
 * words joined by '-'; plugins may add kinds of their own.
 */
public final class FindingKind {
  public static final String XID = "xid";
  public static final String ECC_DBE = "ecc-dbe";
  public static final String ROW_REMAP_FAILURE = "row-remap-failure";
  public static final String THERMAL_THROTTLE = "thermal-throttle";
  public static final String POWER_THROTTLE = "power-throttle";
  public static final String STRAGGLER = "straggler";
  public static final String GPU_MISSING = "gpu-missing";

  /**
   * @since 1.2
   */
  public static final String ECC_SBE_RATE = "ecc-sbe-rate";

  /**
   * @since 1.2
   */
  public static final String RETIRED_PAGES_PENDING = "retired-pages-pending";

  /**
   * @since 1.2
   */
  public static final String ROW_REMAP_PENDING = "row-remap-pending";

  /**
   * @since 1.2
   */
  public static final String NVLINK_ERRORS = "nvlink-errors";

  /**
   * @since 1.2
   */
  public static final String PCIE_REPLAY = "pcie-replay";

  /**
   * @since 1.2
   */
  public static final String PCIE_DOWNTRAINED = "pcie-downtrained";

  /**
   * @since 1.2
   */
  public static final String THERMAL_MARGIN = "thermal-margin";

  /**
   * @since 1.2
   */
  public static final String TELEMETRY_STALE = "telemetry-stale";

  /**
   * Every kind the built-in detectors report, in the order the API documents them.
   *
   * @since 1.2
   */
  public static final List<String> BUILT_IN =
      List.of(
          XID,
          ECC_DBE,
          ECC_SBE_RATE,
          RETIRED_PAGES_PENDING,
          ROW_REMAP_PENDING,
          ROW_REMAP_FAILURE,
          NVLINK_ERRORS,
          PCIE_REPLAY,
          PCIE_DOWNTRAINED,
          THERMAL_THROTTLE,
          POWER_THROTTLE,
          THERMAL_MARGIN,
          STRAGGLER,
          GPU_MISSING,
          TELEMETRY_STALE);

  private static final Pattern VALID = Pattern.compile("[a-z][a-z0-9]*(-[a-z0-9]+)*");

  private FindingKind() {}

  /** Returns true if {@code kind} is spelled as a finding kind must be. */
  public static boolean isValid(String kind) {
    return kind != null && kind.length() <= 64 && VALID.matcher(kind).matches();
  }
}
