package io.bulwark.api.store;

/**
 * Thrown by a repository when the store cannot carry out a call now: the disk is full or below its
 * reserve, the process has no file descriptors left, or an I/O error made the store reopen. Nothing
 * already committed is lost, and the refused call changed nothing. The store recovers by itself
 * once the cause is gone, so the caller may retry later; the web API answers 503 with the message.
 */
public class StoreUnavailableException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /**
   * @param message what happened and what an operator should do, e.g. "the disk of /var/lib/bulwark
   *     has 80 MiB free, below the store's reserve of 256 MiB: free space on it"
   * @param cause the I/O error, or null
   */
  public StoreUnavailableException(String message, Throwable cause) {
    super(message, cause);
  }
}
