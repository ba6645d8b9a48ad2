package io.bulwark.security.internal;

import io.bulwark.api.audit.AuditOutcome;
import io.bulwark.api.security.PasswordHasher;
import io.bulwark.api.security.PasswordPolicy;
import io.bulwark.api.security.Role;
import io.bulwark.api.security.UserAccount;
import io.bulwark.api.security.UserRepository;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.locks.Lock;

/**
 * Creates the first administrator, {@value #NAME}, on an appliance without accounts: with the
 * installer's password (BULWARK_ADMIN_PASSWORD) if it meets the policy, or with a generated one
 * that is handed back once and must be changed at the first login. Never logs a password.
 */
final class FirstAdministrator {
  /** The first administrator's user name. */
  static final String NAME = "admin";

  private static final Logger LOG = System.getLogger(FirstAdministrator.class.getName());
  private static final PasswordPolicy POLICY = PasswordPolicy.standard();

  private final UserRepository users;
  private final PasswordHasher hasher;
  private final AuditTrail audit;
  private final SecureRandom random;
  private final Clock clock;
  private final Lock accountsLock;

  FirstAdministrator(
      UserRepository users,
      PasswordHasher hasher,
      AuditTrail audit,
      SecureRandom random,
      Clock clock,
      Lock accountsLock) {
    this.users = users;
    this.hasher = hasher;
    this.audit = audit;
    this.random = random;
    this.clock = clock;
    this.accountsLock = accountsLock;
  }

  /** See {@link io.bulwark.api.security.Accounts#bootstrapAdmin}. */
  Optional<char[]> create(Optional<char[]> installerPassword) {
    accountsLock.lock();
    try {
      if (!users.users().isEmpty()) {
        return Optional.empty();
      }
      boolean generated = installerPassword.isEmpty();
      char[] password =
          generated ? GeneratedPassword.forUser(NAME, random, POLICY) : installerPassword.get();
      List<String> problems = POLICY.problems(NAME, password);
      if (!problems.isEmpty()) {
        throw new IllegalArgumentException(
            "BULWARK_ADMIN_PASSWORD does not meet the password policy: "
                + String.join(" ", problems));
      }
      UserAccount admin =
          new UserAccount(
              NAME,
              Role.ADMIN,
              hasher.hash(password),
              generated,
              clock.instant(),
              List.of(),
              null,
              false);
      audit.record(
          "system",
          "local",
          "account.bootstrap",
          NAME,
          AuditOutcome.SUCCESS,
          Map.of(
              "role",
              Role.ADMIN.name(),
              "origin",
              generated ? "generated, to be changed at first login" : "BULWARK_ADMIN_PASSWORD"));
      users.save(admin);
      LOG.log(
          Level.INFO,
          "Created the first administrator account \"{0}\" {1}",
          NAME,
          generated
              ? "with a generated password shown once on the console; it must be changed at the"
                  + " first login"
              : "with the installer's password from BULWARK_ADMIN_PASSWORD");
      return generated ? Optional.of(password) : Optional.empty();
    } finally {
      accountsLock.unlock();
    }
  }
}
