package io.bulwark.scheduler.slurm.internal;

/**
 * Text that goes to Slurm or into an operator's message: the drain reason Bulwark records (prefixed
 * with "bulwark: ", so that {@code sinfo -R} and {@code scontrol show node} tell who took the node
 * out and why), and whatever a command printed, on one line. Control characters, line and paragraph
 * separators and format characters become spaces, runs of blanks one space, and a drain reason is
 * cut at a character boundary to {@value #REASON_LIMIT} characters: Slurm itself keeps any length,
 * but every {@code sinfo -R} line would carry it.
 */
final class SlurmText {
  static final int REASON_LIMIT = 200;
  static final String PREFIX = "bulwark: ";

  private SlurmText() {}

  /** Returns the reason for a drain with {@code reason}; a blank one gives a generic reason. */
  static String drainReason(String reason) {
    String text = oneLine(reason == null ? "" : reason);
    String full = PREFIX + (text.isEmpty() ? "drained for remediation" : text);
    if (full.codePointCount(0, full.length()) <= REASON_LIMIT) {
      return full;
    }
    return full.substring(0, full.offsetByCodePoints(0, REASON_LIMIT)).stripTrailing();
  }

  /** Returns {@code text} on one line: control characters as spaces, blanks collapsed, trimmed. */
  static String oneLine(String text) {
    StringBuilder line = new StringBuilder(text.length());
    boolean blank = false;
    for (int i = 0; i < text.length(); ) {
      int c = text.codePointAt(i);
      i += Character.charCount(c);
      int type = Character.getType(c);
      boolean space =
          Character.isWhitespace(c)
              || Character.isISOControl(c)
              || Character.isSpaceChar(c)
              || type == Character.FORMAT
              || type == Character.LINE_SEPARATOR
              || type == Character.PARAGRAPH_SEPARATOR
              || type == Character.SURROGATE;
      if (space) {
        blank = line.length() > 0;
        continue;
      }
      if (blank) {
        line.append(' ');
        blank = false;
      }
      line.appendCodePoint(c);
    }
    return line.toString();
  }
}
