package io.bulwark.api.health;

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

  private static final Pattern VALID = Pattern.compile("[a-z][a-z0-9]*(-[a-z0-9]+)*");

  private FindingKind() {}

  /** Returns true if {@code kind} is spelled as a finding kind must be. */
  public static boolean isValid(String kind) {
    return kind != null && kind.length() <= 64 && VALID.matcher(kind).matches();
  }
}
