package io.bulwark.security.internal;

import io.bulwark.api.audit.AuditOutcome;
import io.bulwark.api.security.AuthenticationException;
import io.bulwark.api.security.PasswordHasher;
import io.bulwark.api.security.UserAccount;
import io.bulwark.api.security.UserRepository;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.locks.Lock;
import java.util.function.Supplier;

/**
 * Checks a user's password for a login or a password change: always one hash verification, against
 * a dummy hash for unknown users so that they cost the same; refuses disabled and locked accounts
 * even with the right password; records a wrong password towards lockout; audits every refusal with
 * its reason (never the password).
 */
final class PasswordCheck {
  private static final Logger LOG = System.getLogger(PasswordCheck.class.getName());

  private final UserRepository users;
  private final PasswordHasher hasher;
  private final LoginFailures failures;
  private final SourceLockouts sources;
  private final AuditTrail audit;
  private final Clock clock;
  private final Lock accountsLock;
  private final Supplier<String> dummyHash;

  PasswordCheck(
      UserRepository users,
      PasswordHasher hasher,
      LoginFailures failures,
      SourceLockouts sources,
      AuditTrail audit,
      Clock clock,
      Lock accountsLock,
      Supplier<String> dummyHash) {
    this.users = users;
    this.hasher = hasher;
    this.failures = failures;
    this.sources = sources;
    this.audit = audit;
    this.clock = clock;
    this.accountsLock = accountsLock;
    this.dummyHash = dummyHash;
  }

  /**
   * Returns the account if {@code password} is its password and it may log in.
   *
   * @param action the audited action a refusal is recorded under
   * @throws AuthenticationException with the reason, after auditing it
   */
  UserAccount check(String user, char[] password, String source, String action) {
    boolean validName = UserAccount.isValidName(user);
    Instant sourceLock = validName ? sources.lockedUntil(user, source, clock.instant()) : null;
    if (sourceLock != null) {
      // Refused before any hashing: a locked-out address costs no PBKDF2 work.
      throw refusal(
          user,
          source,
          action,
          AuditOutcome.DENIED,
          "too many wrong passwords from "
              + source
              + ": this address is locked out of the account until "
              + sourceLock
              + " (other addresses can still log in)");
    }
    Optional<UserAccount> found = validName ? users.user(user) : Optional.empty();
    String hash = found.map(UserAccount::passwordHash).orElseGet(dummyHash);
    boolean matches = verify(password, hash, user);
    String actor = validName ? user : "(not a valid user name)";
    accountsLock.lock();
    try {
      Instant now = clock.instant();
      UserAccount account = found.isEmpty() ? null : users.user(user).orElse(null);
      if (account == null) {
        if (validName) {
          // Unknown names are locked out per address like known ones, so that the lock (and the
          // hashing it saves) tells nothing about which names exist.
          sources.failed(user, source, now);
        }
        throw refusal(actor, source, action, AuditOutcome.FAILURE, "no such user");
      }
      if (account.disabled()) {
        throw refusal(actor, source, action, AuditOutcome.DENIED, "the account is disabled");
      }
      if (account.lockedAt(now) && !SourceLockouts.isConsole(source)) {
        throw refusal(
            actor,
            source,
            action,
            AuditOutcome.DENIED,
            "the account is locked until " + account.lockedUntil());
      }
      if (!matches || !account.passwordHash().equals(hash)) {
        throw wrongPassword(account, now, source, action);
      }
      return account;
    } finally {
      accountsLock.unlock();
    }
  }

  /** Forgets the failures of {@code source} for {@code user}: it logged in. */
  void succeeded(String user, String source) {
    sources.succeeded(user, source);
  }

  private AuthenticationException wrongPassword(
      UserAccount account, Instant now, String source, String action) {
    UserAccount after = failures.failed(account, now);
    users.save(after);
    String user = account.name();
    Instant sourceLock = sources.failed(user, source, now);
    if (sourceLock != null && !after.lockedAt(now)) {
      LOG.log(
          Level.WARNING,
          "Locked {0} out of the account \"{1}\" until {2} after repeated wrong passwords; other"
              + " addresses can still log in",
          source,
          user,
          sourceLock);
      return refusal(
          user,
          source,
          action,
          AuditOutcome.DENIED,
          "wrong password; this address is now locked out of the account until " + sourceLock);
    }
    if (after.lockedAt(now)) {
      LOG.log(
          Level.WARNING,
          "Locked the account \"{0}\" until {1} after wrong passwords from several addresses (the"
              + " last from {2}); it unlocks by itself then, an administrator can unlock it, and"
              + " the appliance's console (https://127.0.0.1) can still log in",
          user,
          after.lockedUntil(),
          source);
      return refusal(
          user,
          source,
          action,
          AuditOutcome.DENIED,
          "wrong password; the account is now locked until " + after.lockedUntil());
    }
    return refusal(
        user,
        source,
        action,
        AuditOutcome.FAILURE,
        "wrong password (" + failures.recentCount(after, now) + " recent failures)");
  }

  private AuthenticationException refusal(
      String actor, String source, String action, AuditOutcome outcome, String reason) {
    audit.tryRecord(actor, source, action, actor, outcome, Map.of("reason", reason));
    return new AuthenticationException(reason);
  }

  private boolean verify(char[] password, String hash, String user) {
    try {
      return hasher.verify(password, hash);
    } catch (IllegalArgumentException e) {
      LOG.log(
          Level.ERROR,
          "The stored password hash of \"{0}\" is unreadable ({1}); the user cannot log in until an"
              + " administrator sets a new password",
          user,
          e.getMessage());
      return false;
    }
  }
}
