package io.bulwark.api.security;

/**
 * Thrown by {@link Accounts} when a user cannot be authenticated: unknown user, wrong password,
 * locked or disabled account, or no audit log to record the login in. The {@linkplain #getMessage
 * message} is the same for every cause, so that it can be shown to the client without telling an
 * attacker which user names exist or which accounts are locked; {@link #reason()} says what
 * happened, for the audit record and the operator's log. Neither ever holds a password.
 */
public class AuthenticationException extends RuntimeException {
  /** The message every client sees. */
  public static final String CLIENT_MESSAGE =
      "user name or password is wrong, or the account is locked";

  private static final long serialVersionUID = 1L;

  /** The specific reason, in words. */
  private final String reason;

  /**
   * Creates the exception with the specific {@code reason} (for the audit record, never shown to
   * the client).
   */
  public AuthenticationException(String reason) {
    this(reason, null);
  }

  /** Creates the exception with the specific {@code reason} and the exception that caused it. */
  public AuthenticationException(String reason, Throwable cause) {
    super(CLIENT_MESSAGE, cause);
    this.reason = reason == null ? "" : reason;
  }

  /** Returns what happened, in words, e.g. "wrong password (2 of 3 failures allowed)". */
  public String reason() {
    return reason;
  }
}
