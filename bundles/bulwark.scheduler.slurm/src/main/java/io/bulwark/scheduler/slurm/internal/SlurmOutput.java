package io.bulwark.scheduler.slurm.internal;

import java.util.List;

/**
 * What one Slurm client command left: its exit status, its standard output and its standard error,
 * both read as UTF-8, and the command line it was started with (for error messages).
 */
record SlurmOutput(List<String> command, int exitCode, String stdout, String stderr) {
  private static final int SAID_LIMIT = 400;

  SlurmOutput {
    command = List.copyOf(command);
  }

  /**
   * Returns what the command said, for an operator: its standard error (or, when that is empty, its
   * standard output) on one line and bounded; "nothing" with the exit status when it said nothing.
   */
  String said() {
    String line = SlurmText.oneLine(stderr.isBlank() ? stdout : stderr);
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
      boolean plain = !argument.isEmpty() && argument.chars().allMatch(SlurmOutput::plain);
      line.append(plain ? argument : "'" + argument.replace("'", "'\\''") + "'");
    }
    return line.toString();
  }

  private static boolean plain(int c) {
    return Character.isLetterOrDigit(c) || "-_./:=@,+%|".indexOf(c) >= 0;
  }
}
