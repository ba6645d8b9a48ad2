package io.bulwark.api.security;

import java.time.Instant;
import java.util.Objects;

/**
 * An API token for automation as stored: its public id, a name for people, the role it acts with,
 * the keyed hash of its secret part (the secret itself is shown once at creation and never stored),
 * who created it, when it expires and whether it was revoked.
 */
public record ApiToken(
    String id,
    String name,
    Role role,
    String secretHash,
    String createdBy,
    Instant createdAt,
    Instant expiresAt,
    boolean revoked) {

  public ApiToken {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(role, "role");
    Objects.requireNonNull(secretHash, "secretHash");
    Objects.requireNonNull(createdBy, "createdBy");
    Objects.requireNonNull(createdAt, "createdAt");
    Objects.requireNonNull(expiresAt, "expiresAt");
  }

  /** Returns true if the token may be used at {@code now}. */
  public boolean validAt(Instant now) {
    return !revoked && now.isBefore(expiresAt);
  }
}
