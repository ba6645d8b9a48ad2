package io.bulwark.security.internal;

import static io.bulwark.security.internal.AccountsFixture.ALICE;
import static io.bulwark.security.internal.AccountsFixture.ALICE_PASSWORD;
import static io.bulwark.security.internal.AccountsFixture.SOURCE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bulwark.api.audit.AuditEvent;
import io.bulwark.api.audit.AuditOutcome;
import io.bulwark.api.audit.AuditUnavailableException;
import io.bulwark.api.security.AuthenticationException;
import io.bulwark.api.security.PasswordHasher;
import io.bulwark.api.security.Role;
import io.bulwark.api.security.Session;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Given alice's account: the right password opens a session, every attempt is audited without the
 * password, three wrong passwords within 15 minutes lock the account for 15 minutes (even against
 * the right password) while three spread over more than 15 minutes do not, and without an audit log
 * nobody logs in.
 */
class LoginTest {
  private static final String WRONG = "Wrong-Guess-Number-1";

  private final AccountsFixture fixture = new AccountsFixture();

  @Test
  void theRightPasswordOpensAnAuditedSession() {
    fixture.addAlice();

    Session session = fixture.accounts.login(ALICE, ALICE_PASSWORD.toCharArray(), SOURCE);

    assertThat(session.user()).isEqualTo(ALICE);
    assertThat(session.role()).isEqualTo(Role.OPERATOR);
    assertThat(session.mustChangePassword()).isFalse();
    assertThat(Base64.getUrlDecoder().decode(session.id())).hasSize(32);
    assertThat(Base64.getUrlDecoder().decode(session.csrfToken())).hasSize(32);
    assertThat(session.csrfToken()).isNotEqualTo(session.id());
    assertThat(session.createdAt()).isEqualTo(fixture.clock.instant());
    assertThat(session.toString()).doesNotContain(session.id()).doesNotContain(session.csrfToken());
    AuditEvent event = fixture.audit.events("session.login").get(0);
    assertThat(event.outcome()).isEqualTo(AuditOutcome.SUCCESS);
    assertThat(event.actor()).isEqualTo(ALICE);
    assertThat(event.source()).isEqualTo(SOURCE);
    fixture.assertNoRecordContains(ALICE_PASSWORD, session.id(), session.csrfToken());
  }

  @Test
  void failuresAreAuditedWithAReasonButNeverThePassword() {
    fixture.addAlice();

    assertThatThrownBy(() -> fixture.accounts.login(ALICE, WRONG.toCharArray(), SOURCE))
        .isInstanceOf(AuthenticationException.class)
        .hasMessage("user name or password is wrong, or the account is locked")
        .extracting(e -> ((AuthenticationException) e).reason())
        .asString()
        .contains("wrong password");
    assertThatThrownBy(() -> fixture.accounts.login("mallory", WRONG.toCharArray(), SOURCE))
        .isInstanceOf(AuthenticationException.class)
        .hasMessage("user name or password is wrong, or the account is locked");

    assertThat(fixture.audit.events("session.login"))
        .extracting(AuditEvent::actor, AuditEvent::outcome, e -> e.details().get("reason"))
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(
                ALICE, AuditOutcome.FAILURE, "wrong password (1 recent failures)"),
            org.assertj.core.groups.Tuple.tuple("mallory", AuditOutcome.FAILURE, "no such user"));
    fixture.assertNoRecordContains(WRONG, ALICE_PASSWORD);
  }

  @Test
  void aPasswordTypedAsAUserNameIsNotAudited() {
    assertThatThrownBy(() -> fixture.accounts.login(ALICE_PASSWORD, WRONG.toCharArray(), SOURCE))
        .isInstanceOf(AuthenticationException.class);

    assertThat(fixture.audit.events("session.login")).hasSize(1);
    fixture.assertNoRecordContains(ALICE_PASSWORD, WRONG);
  }

  @Test
  void threeFailuresFromOneAddressLockThatAddressOutEvenWithTheRightPassword() {
    fixture.addAlice();
    failOnce();
    fixture.clock.advance(Duration.ofMinutes(7));
    failOnce();
    fixture.clock.advance(Duration.ofMinutes(7));
    failOnce();

    assertThat(fixture.audit.events("session.login").get(2).outcome())
        .isEqualTo(AuditOutcome.DENIED);
    fixture.clock.advance(Duration.ofMinutes(14));
    assertThatThrownBy(() -> fixture.accounts.login(ALICE, ALICE_PASSWORD.toCharArray(), SOURCE))
        .isInstanceOf(AuthenticationException.class)
        .extracting(e -> ((AuthenticationException) e).reason())
        .asString()
        .startsWith("too many wrong passwords from " + SOURCE)
        .contains("other addresses can still log in");
    assertThat(fixture.audit.events("session.login").get(3).outcome())
        .isEqualTo(AuditOutcome.DENIED);
    assertThat(fixture.users.user(ALICE).orElseThrow().lockedAt(fixture.clock.instant()))
        .as("the account itself")
        .isFalse();
    assertThat(fixture.accounts.login(ALICE, ALICE_PASSWORD.toCharArray(), "10.0.0.8").user())
        .as("another address")
        .isEqualTo(ALICE);
  }

  @Test
  void failuresFromManyAddressesLockTheAccountButNotTheConsole() {
    fixture.addAlice();
    for (int i = 0; i < 10; i++) {
      String source = "10.0.1." + i;
      assertThatThrownBy(() -> fixture.accounts.login(ALICE, WRONG.toCharArray(), source))
          .isInstanceOf(AuthenticationException.class);
    }
    assertThat(fixture.users.user(ALICE).orElseThrow().lockedAt(fixture.clock.instant())).isTrue();
    assertThatThrownBy(
            () -> fixture.accounts.login(ALICE, ALICE_PASSWORD.toCharArray(), "10.0.2.1"))
        .isInstanceOf(AuthenticationException.class)
        .extracting(e -> ((AuthenticationException) e).reason())
        .asString()
        .startsWith("the account is locked until");
    assertThat(fixture.accounts.login(ALICE, ALICE_PASSWORD.toCharArray(), "127.0.0.1").user())
        .as("the appliance's console")
        .isEqualTo(ALICE);
  }

  @Test
  void unknownNamesAreLockedOutPerAddressLikeKnownOnes() {
    for (int i = 0; i < 3; i++) {
      assertThatThrownBy(() -> fixture.accounts.login("mallory", WRONG.toCharArray(), SOURCE))
          .isInstanceOf(AuthenticationException.class);
    }
    assertThatThrownBy(() -> fixture.accounts.login("mallory", WRONG.toCharArray(), SOURCE))
        .extracting(e -> ((AuthenticationException) e).reason())
        .asString()
        .startsWith("too many wrong passwords from " + SOURCE);
  }

  @Test
  void anAdministratorsUnlockLiftsTheLocksOfEveryAddress() {
    fixture.addAlice();
    failOnce();
    failOnce();
    failOnce();
    assertThat(fixture.accounts.unlockUser("admin", ALICE, "10.0.0.2")).isPresent();
    assertThat(fixture.audit.events("user.unlock")).hasSize(1);
    assertThat(fixture.accounts.login(ALICE, ALICE_PASSWORD.toCharArray(), SOURCE).user())
        .isEqualTo(ALICE);
    assertThat(fixture.accounts.unlockUser("admin", "nobody", "10.0.0.2")).isEmpty();
  }

  @Test
  void theLockRunsOutAfterFifteenMinutes() {
    fixture.addAlice();
    failOnce();
    failOnce();
    failOnce();

    fixture.clock.advance(Duration.ofMinutes(15));

    Session session = fixture.accounts.login(ALICE, ALICE_PASSWORD.toCharArray(), SOURCE);
    assertThat(session.user()).isEqualTo(ALICE);
    assertThat(fixture.users.user(ALICE).orElseThrow().lockedUntil()).isNull();
  }

  @Test
  void threeFailuresSpreadOverMoreThanFifteenMinutesDoNotLock() {
    fixture.addAlice();
    failOnce();
    fixture.clock.advance(Duration.ofMinutes(8));
    failOnce();
    fixture.clock.advance(Duration.ofMinutes(8));
    failOnce();

    assertThat(fixture.users.user(ALICE).orElseThrow().lockedUntil()).isNull();
    assertThat(fixture.accounts.login(ALICE, ALICE_PASSWORD.toCharArray(), SOURCE).user())
        .isEqualTo(ALICE);
  }

  @Test
  void aSuccessClearsEarlierFailures() {
    fixture.addAlice();
    failOnce();
    failOnce();

    fixture.accounts.login(ALICE, ALICE_PASSWORD.toCharArray(), SOURCE);

    assertThat(fixture.users.user(ALICE).orElseThrow().recentFailures()).isEmpty();
    failOnce();
    assertThat(fixture.users.user(ALICE).orElseThrow().lockedUntil()).isNull();
  }

  @Test
  void withoutAnAuditLogTheLoginIsRefused() {
    fixture.addAlice();
    fixture.audit.unavailable(true);

    assertThatThrownBy(() -> fixture.accounts.login(ALICE, ALICE_PASSWORD.toCharArray(), SOURCE))
        .as("refused as the audit log's failure (503), never as a wrong password")
        .isInstanceOf(AuditUnavailableException.class);
  }

  @Test
  void anUnknownUserCostsOneVerificationLikeAKnownOne() {
    fixture.addAlice();
    List<String> verified = new ArrayList<>();
    PasswordHasher counting =
        new PasswordHasher() {
          @Override
          public String hash(char[] password) {
            return AccountsFixture.HASHER.hash(password);
          }

          @Override
          public boolean verify(char[] password, String encodedHash) {
            verified.add(encodedHash);
            return AccountsFixture.HASHER.verify(password, encodedHash);
          }

          @Override
          public boolean needsRehash(String encodedHash) {
            return false;
          }
        };
    LocalAccounts accounts =
        new LocalAccounts(
            fixture.users,
            fixture.tokens,
            counting,
            fixture.secrets,
            fixture.audit,
            Fips.module(),
            AccountsOptions.defaults(),
            fixture.clock,
            AccountsFixture.DUMMY_HASH);

    assertThatThrownBy(() -> accounts.login("mallory", WRONG.toCharArray(), SOURCE))
        .isInstanceOf(AuthenticationException.class);
    assertThatThrownBy(() -> accounts.login(ALICE, WRONG.toCharArray(), SOURCE))
        .isInstanceOf(AuthenticationException.class);

    assertThat(verified)
        .containsExactly(
            AccountsFixture.DUMMY_HASH, fixture.users.user(ALICE).orElseThrow().passwordHash());
  }

  private void failOnce() {
    assertThatThrownBy(() -> fixture.accounts.login(ALICE, WRONG.toCharArray(), SOURCE))
        .isInstanceOf(AuthenticationException.class);
  }
}
