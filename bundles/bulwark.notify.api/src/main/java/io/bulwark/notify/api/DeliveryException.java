package io.bulwark.notify.api;

/**
 * A receiver did not accept notifications. {@link #retryable()} is false when sending the same
 * again cannot succeed (the receiver rejects the message itself, e.g. HTTP 400): the notifications
 * are then dropped and counted instead of blocking the channel.
 */
public final class DeliveryException extends Exception {
  private static final long serialVersionUID = 1L;

  private final boolean retryable;

  /** A failure worth retrying: the receiver is unreachable, timed out, or answered "try later". */
  public DeliveryException(String message, Throwable cause) {
    this(message, cause, true);
  }

  /**
   * @param message what happened and where, e.g. "syslog.example:6514 refused the connection"
   * @param retryable false if the same notifications can never be accepted
   */
  public DeliveryException(String message, Throwable cause, boolean retryable) {
    super(message, cause);
    this.retryable = retryable;
  }

  /** Returns true if sending again later can succeed. */
  public boolean retryable() {
    return retryable;
  }
}
