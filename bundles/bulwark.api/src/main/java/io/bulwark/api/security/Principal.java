package io.bulwark.api.security;

import java.util.Objects;

/**
 * Who is making a request, once authenticated: a user through a browser session, or an API token
 * used by automation. Returned by {@link Accounts}; used by the web bundle to check roles and to
 * name the actor in audit records. Immutable.
 *
 * @param name the user name for a session, the token id for a token
 * @param role what the principal may do
 * @param kind how it authenticated
 */
public record Principal(String name, Role role, Kind kind) {

  /** How a principal authenticated. */
  public enum Kind {
    /** A user with a browser session (user name and password). */
    SESSION,
    /** Automation with an API token. */
    TOKEN
  }

  /**
   * Validates the principal.
   *
   * @throws NullPointerException if any part is null
   */
  public Principal {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(role, "role");
    Objects.requireNonNull(kind, "kind");
  }
}
