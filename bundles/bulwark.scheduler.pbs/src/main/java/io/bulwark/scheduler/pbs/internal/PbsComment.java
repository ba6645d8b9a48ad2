package io.bulwark.scheduler.pbs.internal;

import java.nio.charset.StandardCharsets;

/**
 * The text Bulwark records with a node it drains: PBS's comment (OpenPBS) or note (Torque),
 * prefixed with "bulwark: " so that an operator who runs {@code pbsnodes -l} sees who took the node
 * out and why. Control characters become spaces, runs of blanks one space, and the text is cut at a
 * character boundary to {@value #LIMIT_BYTES} bytes of UTF-8: OpenPBS's pbsnodes copies the comment
 * into an 80-byte buffer (79 bytes and the terminating NUL), so a longer text would be cut there
 * without a word.
 */
final class PbsComment {
  static final int LIMIT_BYTES = 79;
  static final String PREFIX = "bulwark: ";

  private PbsComment() {}

  /** Returns the comment for a drain with {@code reason}; a blank reason gives a generic one. */
  static String forDrain(String reason) {
    String text = oneLine(reason == null ? "" : reason);
    return bounded(PREFIX + (text.isEmpty() ? "drained for remediation" : text));
  }

  /** Returns {@code text} on one line: control characters as spaces, blanks collapsed, trimmed. */
  static String oneLine(String text) {
    StringBuilder line = new StringBuilder(text.length());
    boolean blank = false;
    for (int i = 0; i < text.length(); ) {
      int c = text.codePointAt(i);
      i += Character.charCount(c);
      boolean space =
          Character.isWhitespace(c)
              || Character.isISOControl(c)
              || Character.getType(c) == Character.FORMAT
              || Character.getType(c) == Character.LINE_SEPARATOR
              || Character.getType(c) == Character.PARAGRAPH_SEPARATOR
              || Character.getType(c) == Character.SURROGATE;
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

  private static String bounded(String text) {
    if (text.getBytes(StandardCharsets.UTF_8).length <= LIMIT_BYTES) {
      return text;
    }
    StringBuilder cut = new StringBuilder();
    int bytes = 0;
    for (int i = 0; i < text.length(); ) {
      int c = text.codePointAt(i);
      int size = new String(Character.toChars(c)).getBytes(StandardCharsets.UTF_8).length;
      if (bytes + size > LIMIT_BYTES) {
        break;
      }
      cut.appendCodePoint(c);
      bytes += size;
      i += Character.charCount(c);
    }
    return cut.toString().stripTrailing();
  }
}
