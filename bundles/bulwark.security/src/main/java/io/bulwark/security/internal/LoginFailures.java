package io.bulwark.security.internal;

import io.bulwark.api.security.UserAccount;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The account-wide lockout rule: a failed login is remembered for the lockout window; when an
 * account has collected {@code accountLockoutAttempts} failures within the window, from whatever
 * addresses, it is locked for the lockout time and its failures are forgotten, so that it starts
 * afresh once the lock runs out. The lock of one address comes first ({@link SourceLockouts}).
 */
final class LoginFailures {
  private final AccountsOptions options;

  LoginFailures(AccountsOptions options) {
    this.options = options;
  }

  /** Returns {@code account} with a failure at {@code now} added, locked if it was one too many. */
  UserAccount failed(UserAccount account, Instant now) {
    Instant windowStart = now.minus(options.lockoutWindow());
    List<Instant> recent = new ArrayList<>();
    for (Instant failure : account.recentFailures()) {
      if (failure.isAfter(windowStart) && !failure.isAfter(now)) {
        recent.add(failure);
      }
    }
    recent.add(now);
    boolean lock = recent.size() >= options.accountLockoutAttempts();
    return new UserAccount(
        account.name(),
        account.role(),
        account.passwordHash(),
        account.mustChangePassword(),
        account.passwordChangedAt(),
        lock ? List.of() : recent,
        lock ? now.plus(options.lockout()) : account.lockedUntil(),
        account.disabled());
  }

  /** Returns how many failures {@code account} has within the window before {@code now}. */
  int recentCount(UserAccount account, Instant now) {
    Instant windowStart = now.minus(options.lockoutWindow());
    return (int) account.recentFailures().stream().filter(f -> f.isAfter(windowStart)).count();
  }

  /** Returns {@code account} with no failures and no lock. */
  static UserAccount cleared(UserAccount account) {
    return new UserAccount(
        account.name(),
        account.role(),
        account.passwordHash(),
        account.mustChangePassword(),
        account.passwordChangedAt(),
        List.of(),
        null,
        account.disabled());
  }
}
