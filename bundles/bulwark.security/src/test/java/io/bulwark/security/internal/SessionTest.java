package io.bulwark.security.internal;

import static io.bulwark.security.internal.AccountsFixture.ALICE;
import static io.bulwark.security.internal.AccountsFixture.ALICE_PASSWORD;
import static io.bulwark.security.internal.AccountsFixture.SOURCE;
import static org.assertj.core.api.Assertions.assertThat;

import io.bulwark.api.audit.AuditOutcome;
import io.bulwark.api.security.Session;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Given alice (an operator) logged in: her session lives while she uses it, ends after 15 idle
 * minutes (audited as expired; an admin's after 10), and ends at logout (audited); unknown ids find
 * nothing.
 */
class SessionTest {
  private final AccountsFixture fixture = new AccountsFixture();
  private Session session;

  @BeforeEach
  void logIn() {
    fixture.addAlice();
    session = fixture.accounts.login(ALICE, ALICE_PASSWORD.toCharArray(), SOURCE);
  }

  @Test
  void useKeepsTheSessionAliveAndRefreshesIt() {
    fixture.clock.advance(Duration.ofMinutes(14));
    Session used = fixture.accounts.session(session.id()).orElseThrow();
    assertThat(used.lastUsedAt()).isEqualTo(fixture.clock.instant());
    assertThat(used.createdAt()).isEqualTo(session.createdAt());

    fixture.clock.advance(Duration.ofMinutes(14));
    assertThat(fixture.accounts.session(session.id())).isPresent();
  }

  @Test
  void fifteenIdleMinutesEndTheSession() {
    fixture.clock.advance(Duration.ofMinutes(15));

    assertThat(fixture.accounts.session(session.id())).isEmpty();
    assertThat(fixture.audit.events("session.expired"))
        .singleElement()
        .satisfies(
            e -> {
              assertThat(e.actor()).isEqualTo(ALICE);
              assertThat(e.outcome()).isEqualTo(AuditOutcome.SUCCESS);
            });
    fixture.clock.advance(Duration.ofMinutes(-10));
    assertThat(fixture.accounts.session(session.id())).as("gone for good").isEmpty();
  }

  @Test
  void anAdminsSessionEndsAfterTenIdleMinutesWhileAnOperatorsLives() {
    fixture.addUser("root-admin", io.bulwark.api.security.Role.ADMIN, ALICE_PASSWORD, false);
    Session admin = fixture.accounts.login("root-admin", ALICE_PASSWORD.toCharArray(), SOURCE);
    fixture.clock.advance(Duration.ofMinutes(10));

    assertThat(fixture.accounts.session(admin.id())).as("admin, 10 idle minutes").isEmpty();
    assertThat(fixture.accounts.session(session.id())).as("operator, 10 idle minutes").isPresent();
    assertThat(fixture.audit.events("session.expired"))
        .singleElement()
        .satisfies(e -> assertThat(e.actor()).isEqualTo("root-admin"));
  }

  @Test
  void logoutEndsTheSessionAndIsAudited() {
    assertThat(fixture.accounts.logout(session.id(), SOURCE)).isTrue();

    assertThat(fixture.accounts.session(session.id())).isEmpty();
    assertThat(fixture.accounts.logout(session.id(), SOURCE)).isFalse();
    assertThat(fixture.audit.events("session.logout"))
        .singleElement()
        .satisfies(e -> assertThat(e.actor()).isEqualTo(ALICE));
    fixture.assertNoRecordContains(session.id());
  }

  @Test
  void logoutEndsTheSessionEvenWithoutAnAuditLog() {
    fixture.audit.unavailable(true);

    try {
      fixture.accounts.logout(session.id(), SOURCE);
    } catch (io.bulwark.api.audit.AuditUnavailableException expected) {
      // reported to the caller; the session must be gone all the same
    }

    assertThat(fixture.accounts.session(session.id())).isEmpty();
  }

  @Test
  void unknownOrMissingIdsFindNothing() {
    assertThat(fixture.accounts.session("not-a-session")).isEmpty();
    assertThat(fixture.accounts.session(null)).isEmpty();
    assertThat(fixture.accounts.session(session.id())).isPresent();
  }

  @Test
  void eachLoginGetsItsOwnSession() {
    Session second = fixture.accounts.login(ALICE, ALICE_PASSWORD.toCharArray(), SOURCE);

    assertThat(second.id()).isNotEqualTo(session.id());
    assertThat(second.csrfToken()).isNotEqualTo(session.csrfToken());
  }
}
