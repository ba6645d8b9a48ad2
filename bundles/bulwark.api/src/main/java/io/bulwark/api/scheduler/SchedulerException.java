package io.bulwark.api.scheduler;

/**
 * A scheduler that could not answer or refused. The message speaks to an operator: which scheduler
 * and node, what it said, what to do ("slurm: scontrol refused to drain gpu-a07: Invalid node name
 * specified; check that the machine's host name is the Slurm node name").
 */
public final class SchedulerException extends Exception {
  private static final long serialVersionUID = 1L;

  /** Creates the failure; {@code cause} may be null. */
  public SchedulerException(String message, Throwable cause) {
    super(message, cause);
  }

  /** Creates the failure. */
  public SchedulerException(String message) {
    super(message);
  }
}
