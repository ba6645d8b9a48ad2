package io.bulwark.machines.internal;

import java.util.regex.Pattern;

/**
 * Checks a host name an admin gives (a machine's, by hand or in an inventory) as RFC 1123 names it:
 * labels of letters, digits and '-', separated by '.', each 1 to 63 characters and neither starting
 * nor ending with '-', at most 253 characters in all. Nothing else passes, so a host name cannot
 * carry markup, a spreadsheet formula or a cloud-init line into what shows or exports it. Used by
 * {@link MachineInput}.
 */
final class HostName {
  static final int MAX_LENGTH = 253;
  private static final Pattern LABEL =
      Pattern.compile("[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?");

  private HostName() {}

  /** Returns true if {@code value} is an RFC 1123 host name (an IPv4 address is one too). */
  static boolean isValid(String value) {
    if (value == null || value.isEmpty() || value.length() > MAX_LENGTH) {
      return false;
    }
    for (String label : value.split("\\.", -1)) {
      if (!LABEL.matcher(label).matches()) {
        return false;
      }
    }
    return true;
  }

  /**
   * Returns {@code value}, stripped, if it is a host name.
   *
   * @param field the field it came in, for the message
   * @throws IllegalArgumentException naming the field and the rule otherwise
   */
  static String check(String value, String field) {
    String v = value.strip();
    if (!isValid(v)) {
      throw new IllegalArgumentException(refusal(value, field));
    }
    return v;
  }

  private static String refusal(String value, String field) {
    String shown = value.length() > 80 ? value.substring(0, 80) + "…" : value;
    return "'"
        + field
        + "' is not a usable host name: '"
        + shown
        + "'. A host name is labels of letters, digits and '-' separated by '.', each"
        + " 1-63 characters and not starting or ending with '-', at most "
        + MAX_LENGTH
        + " characters in all (RFC 1123)";
  }
}
