package io.bulwark.lib.exposition;

import java.util.List;

/**
 * What parsing one page gave: how many lines it had, how many samples were read, and the malformed
 * lines that were skipped (the count, and the first few with line number and reason).
 */
public record ParseSummary(
    int lines, int samples, int malformed, List<MalformedLine> firstMalformed) {

  /**
   * One skipped line: its number (1 being the first) and why it was skipped, in an operator's
   * words.
   */
  public record MalformedLine(int line, String reason) {
    @Override
    public String toString() {
      return "line " + line + ": " + reason;
    }
  }

  public ParseSummary {
    firstMalformed = List.copyOf(firstMalformed);
  }

  /** Returns true if the page had malformed lines and not a single valid sample. */
  public boolean isGarbage() {
    return samples == 0 && malformed > 0;
  }

  /**
   * Describes the skipped lines for a log line or an error, e.g. "2 malformed lines (line 4: ...)".
   */
  public String describeMalformed() {
    StringBuilder text =
        new StringBuilder()
            .append(malformed)
            .append(malformed == 1 ? " malformed line" : " malformed lines");
    if (!firstMalformed.isEmpty()) {
      text.append(" (").append(firstMalformed.get(0)).append(')');
    }
    return text.toString();
  }
}
