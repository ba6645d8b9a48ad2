package io.bulwark.security.internal;

import java.time.Duration;

/**
 * The validated, immutable form of {@link AccountsConfig}.
 *
 * @param lockoutAttempts failed logins from one address within {@code lockoutWindow} that lock the
 *     account for that address
 * @param accountLockoutAttempts failed logins from all addresses within {@code lockoutWindow} that
 *     lock the account for every address but the appliance's own console (loopback)
 * @param lockoutWindow how far back failed logins count
 * @param lockout how long a locked account stays locked
 * @param sessionIdle how long an unused session lives
 * @param adminSessionIdle how long an unused admin session lives (at most {@code sessionIdle})
 * @param tokenMaxValidity the longest validity of an API token
 */
record AccountsOptions(
    int lockoutAttempts,
    int accountLockoutAttempts,
    Duration lockoutWindow,
    Duration lockout,
    Duration sessionIdle,
    Duration adminSessionIdle,
    Duration tokenMaxValidity) {

  AccountsOptions {
    if (lockoutAttempts < 1 || lockoutAttempts > 100) {
      throw new IllegalArgumentException(
          "lockoutAttempts must be 1 to 100, not " + lockoutAttempts);
    }
    if (accountLockoutAttempts < lockoutAttempts || accountLockoutAttempts > 1000) {
      throw new IllegalArgumentException(
          "accountLockoutAttempts must be from lockoutAttempts ("
              + lockoutAttempts
              + ") to 1000, not "
              + accountLockoutAttempts);
    }
    requirePositive("lockoutWindowSeconds", lockoutWindow);
    requirePositive("lockoutSeconds", lockout);
    requirePositive("sessionIdleSeconds", sessionIdle);
    requirePositive("adminSessionIdleSeconds", adminSessionIdle);
    if (adminSessionIdle.compareTo(sessionIdle) > 0) {
      throw new IllegalArgumentException(
          "adminSessionIdleSeconds ("
              + adminSessionIdle.toSeconds()
              + ") must not be longer than sessionIdleSeconds ("
              + sessionIdle.toSeconds()
              + ")");
    }
    requirePositive("tokenMaxDays", tokenMaxValidity);
  }

  /**
   * Returns the defaults: 3 attempts from one address (10 from all) in 15 minutes lock for 15
   * minutes, 15 minutes idle (10 for an admin), 1 year.
   */
  static AccountsOptions defaults() {
    return new AccountsOptions(
        3,
        10,
        Duration.ofMinutes(15),
        Duration.ofMinutes(15),
        Duration.ofMinutes(15),
        Duration.ofMinutes(10),
        Duration.ofDays(365));
  }

  /**
   * Validates the configuration.
   *
   * @throws IllegalArgumentException naming the property that is wrong
   */
  static AccountsOptions from(AccountsConfig config) {
    return new AccountsOptions(
        config.lockoutAttempts(),
        config.accountLockoutAttempts(),
        Duration.ofSeconds(config.lockoutWindowSeconds()),
        Duration.ofSeconds(config.lockoutSeconds()),
        Duration.ofSeconds(config.sessionIdleSeconds()),
        Duration.ofSeconds(config.adminSessionIdleSeconds()),
        Duration.ofDays(config.tokenMaxDays()));
  }

  private static void requirePositive(String property, Duration value) {
    if (value == null || value.isNegative() || value.isZero()) {
      throw new IllegalArgumentException(property + " must be positive, not " + value);
    }
  }
}
