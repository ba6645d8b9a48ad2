package io.bulwark.api.bmc;

/**
 * A BMC that could not do what was asked. The message speaks to an operator: which BMC, what
 * happened, what to do ("BMC 10.2.0.17:443 refused the credentials: check the user name and
 * password stored for machine dgx-a07").
 */
public final class BmcException extends Exception {
  private static final long serialVersionUID = 1L;

  /** What kind of failure it was, for retries and for the machine's BMC status. */
  public enum Kind {
    /** Not reachable: refused, no route, timed out while connecting. Worth a retry later. */
    UNREACHABLE,
    /** It answered too slowly or not at all. Worth a retry later. */
    TIMEOUT,
    /** It is busy (503, Retry-After). Worth a retry later. */
    BUSY,
    /** It refused the credentials. Retrying will not help. */
    CREDENTIALS,
    /** Its certificate is not the pinned one, or none is pinned yet. An admin must approve. */
    CERTIFICATE,
    /** It does not offer what was asked (a reset type, a boot device, a resource). */
    UNSUPPORTED,
    /** It answered something that does not follow the protocol. */
    PROTOCOL
  }

  private final Kind kind;
  private final String fingerprint;

  /** Creates the failure; {@code cause} may be null. */
  public BmcException(Kind kind, String message, Throwable cause) {
    this(kind, message, cause, "");
  }

  /** Creates a {@link Kind#CERTIFICATE} failure carrying the fingerprint the BMC presented. */
  public BmcException(Kind kind, String message, Throwable cause, String fingerprint) {
    super(message, cause);
    this.kind = kind;
    this.fingerprint = fingerprint == null ? "" : fingerprint;
  }

  /** Returns the kind of failure. */
  public Kind kind() {
    return kind;
  }

  /** Returns true if trying again later may succeed. */
  public boolean retryable() {
    return kind == Kind.UNREACHABLE || kind == Kind.TIMEOUT || kind == Kind.BUSY;
  }

  /** Returns the SHA-256 fingerprint the BMC presented (certificate failures), or "". */
  public String fingerprint() {
    return fingerprint;
  }
}
