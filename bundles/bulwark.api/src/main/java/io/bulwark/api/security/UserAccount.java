package io.bulwark.api.security;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A local account: its name, role, password hash (never the password), whether the password must be
 * changed at the next login, the recent failed logins that count towards lockout, and until when it
 * is locked.
 *
 * @param lockedUntil null when not locked
 */
public record UserAccount(
    String name,
    Role role,
    String passwordHash,
    boolean mustChangePassword,
    Instant passwordChangedAt,
    List<Instant> recentFailures,
    Instant lockedUntil,
    boolean disabled) {

  private static final Pattern VALID_NAME = Pattern.compile("[a-z][a-z0-9._-]{1,31}");

  public UserAccount {
    if (!isValidName(name)) {
      throw new IllegalArgumentException(
          "not a valid user name: '"
              + name
              + "' (2-32 of a-z, 0-9, '.', '_', '-', starting with a letter)");
    }
    Objects.requireNonNull(role, "role");
    Objects.requireNonNull(passwordHash, "passwordHash");
    Objects.requireNonNull(passwordChangedAt, "passwordChangedAt");
    recentFailures = List.copyOf(recentFailures);
  }

  /** Returns true if {@code name} is spelled as a user name must be. */
  public static boolean isValidName(String name) {
    return name != null && VALID_NAME.matcher(name).matches();
  }

  /** Returns true if the account is locked at {@code now}. */
  public boolean lockedAt(Instant now) {
    return lockedUntil != null && now.isBefore(lockedUntil);
  }
}
