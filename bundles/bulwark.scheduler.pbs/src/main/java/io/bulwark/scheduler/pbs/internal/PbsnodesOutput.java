package io.bulwark.scheduler.pbs.internal;

import java.util.List;

/**
 * What one pbsnodes call left: its exit status, its standard output and its standard error, both
 * read as UTF-8, and the command line it was started with (for error messages).
 */
record PbsnodesOutput(List<String> command, int exitCode, String stdout, String stderr) {
  private static final int SAID_LIMIT = 400;

  PbsnodesOutput {
    command = List.copyOf(command);
  }

  /**
   * Returns what pbsnodes said, for an operator: its standard error (or, when that is empty, its
   * standard output) on one line, its lines joined with " / ", bounded, with control characters
   * shown as spaces; "nothing" when it said nothing.
   */
  String said() {
    String text = stderr.isBlank() ? stdout : stderr;
    String line =
        String.join(
            " / ", text.lines().map(PbsComment::oneLine).filter(l -> !l.isEmpty()).toList());
    if (line.isEmpty()) {
      return "nothing (exit status " + exitCode + ")";
    }
    return line.length() > SAID_LIMIT ? line.substring(0, SAID_LIMIT) + "…" : line;
  }

  /** Returns whether standard error or standard output holds {@code text}. */
  boolean says(String text) {
    return stderr.contains(text) || stdout.contains(text);
  }

  /** Returns the command line as an operator would type it, arguments quoted where needed. */
  String commandLine() {
    StringBuilder line = new StringBuilder();
    for (String argument : command) {
      if (line.length() > 0) {
        line.append(' ');
      }
      boolean plain = !argument.isEmpty() && argument.chars().allMatch(PbsnodesOutput::plain);
      line.append(plain ? argument : "'" + argument.replace("'", "'\\''") + "'");
    }
    return line.toString();
  }

  private static boolean plain(int c) {
    return Character.isLetterOrDigit(c) || "-_./:=@,+%".indexOf(c) >= 0;
  }
}
