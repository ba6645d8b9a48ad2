package io.bulwark.api.bmc;

import java.util.Arrays;
import java.util.Objects;

/**
 * A BMC user name and password, read from the sealed secret store for one connection. Clear it when
 * done ({@link #close()}); {@link #toString()} never shows the password.
 */
public final class BmcCredentials implements AutoCloseable {
  private final String username;
  private final char[] password;

  /** Copies {@code password}; the caller clears its own copy. */
  public BmcCredentials(String username, char[] password) {
    this.username = Objects.requireNonNull(username, "username");
    this.password = Objects.requireNonNull(password, "password").clone();
  }

  /** Returns the user name. */
  public String username() {
    return username;
  }

  /** Returns a copy of the password; clear it after use. */
  public char[] password() {
    return password.clone();
  }

  /** Overwrites the password. */
  @Override
  public void close() {
    Arrays.fill(password, '\0');
  }

  @Override
  public String toString() {
    return "BmcCredentials[" + username + ", password hidden]";
  }
}
