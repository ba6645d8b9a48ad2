package io.bulwark.scheduler.slurm.internal;

/**
 * A Slurm command printed something that is not the listing it was asked for, or a listing whose
 * own errors say it is not the cluster's; the message says what was wrong with it, and the
 * connector adds the scheduler, the command and what to do.
 */
final class SlurmOutputException extends Exception {
  private static final long serialVersionUID = 1L;

  private final boolean reportedBySlurm;

  SlurmOutputException(String message) {
    this(message, false);
  }

  SlurmOutputException(String message, boolean reportedBySlurm) {
    super(message);
    this.reportedBySlurm = reportedBySlurm;
  }

  SlurmOutputException(String message, Throwable cause) {
    super(message, cause);
    this.reportedBySlurm = false;
  }

  /** Whether the command listed errors of its own (it could not reach slurmctld, mostly). */
  boolean reportedBySlurm() {
    return reportedBySlurm;
  }
}
