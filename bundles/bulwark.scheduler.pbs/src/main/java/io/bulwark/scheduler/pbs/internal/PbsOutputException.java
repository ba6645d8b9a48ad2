package io.bulwark.scheduler.pbs.internal;

/**
 * pbsnodes printed something that is not the listing it was asked for; the message says what was
 * wrong with it, and the connector adds the scheduler, the command and what to do.
 */
final class PbsOutputException extends Exception {
  private static final long serialVersionUID = 1L;

  PbsOutputException(String message) {
    super(message);
  }

  PbsOutputException(String message, Throwable cause) {
    super(message, cause);
  }
}
