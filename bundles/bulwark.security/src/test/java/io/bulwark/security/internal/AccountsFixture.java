package io.bulwark.security.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.bulwark.api.audit.AuditEvent;
import io.bulwark.api.security.Role;
import io.bulwark.api.security.UserAccount;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A {@link LocalAccounts} with the real FIPS module and PBKDF2 hasher (at the least 210,000
 * iterations) over in-memory test doubles and a clock that tests move. Password hashes of the test
 * users are made once per JVM, to keep the number of slow hashes small.
 */
final class AccountsFixture {
  static final Pbkdf2PasswordHasher HASHER =
      new Pbkdf2PasswordHasher(
          Fips.module(), new PasswordHashingOptions(PasswordHashingOptions.LEAST_ITERATIONS));
  static final String ALICE = "alice";
  static final String ALICE_PASSWORD = "Rack-Seven-Blue-42!";
  static final String SOURCE = "192.0.2.10";

  /** One dummy hash for all fixtures; each appliance start makes its own. */
  static final String DUMMY_HASH = LocalAccounts.dummyHash(HASHER, Fips.module());

  private static final Map<String, String> HASHES = new ConcurrentHashMap<>();

  final SettableClock clock = new SettableClock(Instant.parse("2025-03-01T08:00:00Z"));
  final InMemoryUsers users = new InMemoryUsers();
  final InMemoryTokens tokens = new InMemoryTokens();
  final InMemorySecrets secrets = new InMemorySecrets();
  final RecordingAuditLog audit = new RecordingAuditLog(clock);
  final LocalAccounts accounts =
      new LocalAccounts(
          users,
          tokens,
          HASHER,
          secrets,
          audit,
          Fips.module(),
          AccountsOptions.defaults(),
          clock,
          DUMMY_HASH);

  /** Stores a user with {@code password} directly in the repository (no audit record). */
  UserAccount addUser(String name, Role role, String password, boolean mustChange) {
    UserAccount account =
        new UserAccount(
            name,
            role,
            HASHES.computeIfAbsent(password, p -> HASHER.hash(p.toCharArray())),
            mustChange,
            clock.instant(),
            List.of(),
            null,
            false);
    users.save(account);
    return account;
  }

  /** Stores alice, an operator who need not change her password. */
  UserAccount addAlice() {
    return addUser(ALICE, Role.OPERATOR, ALICE_PASSWORD, false);
  }

  /** Asserts that no audit record so far holds any of {@code secrets} anywhere. */
  void assertNoRecordContains(String... secrets) {
    for (AuditEvent event : audit.events()) {
      for (String secret : secrets) {
        assertThat(event.toString()).doesNotContain(secret);
      }
    }
  }
}
