package io.bulwark.api.security;

import java.util.Objects;

/**
 * A newly created API token as {@link Accounts#createToken} returns it, once: the full token string
 * ({@code bwk_<id>_<secret>}) to hand to the automation that will use it, and the token as stored
 * (which holds only a keyed hash of the secret). The token string cannot be shown again. Used by
 * the web bundle's token administration. Immutable; {@link #toString} leaves out the token string.
 *
 * @param token the bearer token to show once; a secret
 * @param stored the token as stored
 */
public record IssuedToken(String token, ApiToken stored) {

  /**
   * Validates the issued token.
   *
   * @throws NullPointerException if any part is null
   */
  public IssuedToken {
    Objects.requireNonNull(token, "token");
    Objects.requireNonNull(stored, "stored");
  }

  @Override
  public String toString() {
    return "IssuedToken[stored=" + stored + "]";
  }
}
