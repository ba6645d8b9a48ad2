package io.bulwark.cli;

/** Text from the appliance made safe to print on a terminal. */
final class Text {
  private Text() {}

  /**
   * Returns {@code s} with control characters (which could move the cursor or rewrite the
   * terminal's title) replaced: line breaks and tabs by a space, the others by '?'.
   */
  static String clean(String s) {
    if (s == null) {
      return "";
    }
    StringBuilder out = null;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      boolean control = c < 0x20 || (c >= 0x7f && c <= 0x9f) || c == 0x2028 || c == 0x2029;
      if (control && out == null) {
        out = new StringBuilder(s.length()).append(s, 0, i);
      }
      if (out != null) {
        out.append(!control ? c : (c == '\n' || c == '\r' || c == '\t') ? ' ' : '?');
      }
    }
    return out == null ? s : out.toString();
  }
}
