package io.bulwark.api.security;

import java.time.Instant;
import java.util.Objects;

/**
 * A logged-in user's browser session, kept in memory by {@link Accounts}: its id (256 random bits,
 * base64url, the cookie value), the user and role, a CSRF token (256 random bits, base64url) that
 * state-changing requests must echo, whether the user must change the password before anything
 * else, and when it was opened and last used. Used by the web bundle. Immutable; {@link #toString}
 * leaves out the id and the CSRF token, which are secrets.
 */
public record Session(
    String id,
    String user,
    Role role,
    String csrfToken,
    boolean mustChangePassword,
    Instant createdAt,
    Instant lastUsedAt) {

  /**
   * Validates the session.
   *
   * @throws NullPointerException if any part is null
   */
  public Session {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(user, "user");
    Objects.requireNonNull(role, "role");
    Objects.requireNonNull(csrfToken, "csrfToken");
    Objects.requireNonNull(createdAt, "createdAt");
    Objects.requireNonNull(lastUsedAt, "lastUsedAt");
  }

  /** Returns the principal of this session: the user, the role, {@link Principal.Kind#SESSION}. */
  public Principal principal() {
    return new Principal(user, role, Principal.Kind.SESSION);
  }

  @Override
  public String toString() {
    return "Session[user="
        + user
        + ", role="
        + role
        + ", mustChangePassword="
        + mustChangePassword
        + ", createdAt="
        + createdAt
        + ", lastUsedAt="
        + lastUsedAt
        + "]";
  }
}
