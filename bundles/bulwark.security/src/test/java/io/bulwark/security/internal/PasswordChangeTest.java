package io.bulwark.security.internal;

import static io.bulwark.security.internal.AccountsFixture.ALICE;
import static io.bulwark.security.internal.AccountsFixture.ALICE_PASSWORD;
import static io.bulwark.security.internal.AccountsFixture.SOURCE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bulwark.api.audit.AuditOutcome;
import io.bulwark.api.security.AuthenticationException;
import io.bulwark.api.security.Role;
import io.bulwark.api.security.Session;
import org.junit.jupiter.api.Test;

/**
 * A password changes only with the right current password, to one that meets the policy, does not
 * contain the user name and differs from the current one; the change clears the must-change flag,
 * also in open sessions, and is audited without either password.
 */
class PasswordChangeTest {
  private static final String NEXT = "Green-Lantern-Row-77";

  private final AccountsFixture fixture = new AccountsFixture();

  @Test
  void aGoodChangeClearsMustChangeAndIsAudited() {
    fixture.addUser(ALICE, Role.OPERATOR, ALICE_PASSWORD, true);
    Session session = fixture.accounts.login(ALICE, ALICE_PASSWORD.toCharArray(), SOURCE);
    assertThat(session.mustChangePassword()).isTrue();

    Session other = fixture.accounts.login(ALICE, ALICE_PASSWORD.toCharArray(), "10.0.0.99");
    fixture.accounts.changePassword(
        ALICE, ALICE_PASSWORD.toCharArray(), NEXT.toCharArray(), SOURCE, session.id());

    assertThat(fixture.users.user(ALICE).orElseThrow().mustChangePassword()).isFalse();
    assertThat(fixture.accounts.session(session.id()).orElseThrow().mustChangePassword()).isFalse();
    assertThat(fixture.accounts.session(other.id()))
        .as("every other session of the user ends with the change")
        .isEmpty();
    assertThat(fixture.audit.events("session.ended"))
        .singleElement()
        .satisfies(
            e -> assertThat(e.details()).containsEntry("reason", "the password was changed"));
    assertThat(
            AccountsFixture.HASHER.verify(
                NEXT.toCharArray(), fixture.users.user(ALICE).orElseThrow().passwordHash()))
        .isTrue();
    assertThat(fixture.audit.events("password.change"))
        .singleElement()
        .satisfies(e -> assertThat(e.outcome()).isEqualTo(AuditOutcome.SUCCESS));
    fixture.assertNoRecordContains(ALICE_PASSWORD, NEXT);
  }

  @Test
  void aWrongCurrentPasswordIsRefusedAndCountsTowardsLockout() {
    fixture.addAlice();

    assertThatThrownBy(
            () ->
                fixture.accounts.changePassword(
                    ALICE, "Not-Her-Password-9".toCharArray(), NEXT.toCharArray(), SOURCE))
        .isInstanceOf(AuthenticationException.class);

    assertThat(fixture.users.user(ALICE).orElseThrow().recentFailures()).hasSize(1);
    assertThat(fixture.audit.events("password.change").get(0).outcome())
        .isEqualTo(AuditOutcome.FAILURE);
    assertThat(
            AccountsFixture.HASHER.verify(
                ALICE_PASSWORD.toCharArray(),
                fixture.users.user(ALICE).orElseThrow().passwordHash()))
        .isTrue();
  }

  @Test
  void aNewPasswordWithTheUserNameInsideIsRefused() {
    fixture.addAlice();

    assertThatThrownBy(
            () ->
                fixture.accounts.changePassword(
                    ALICE, ALICE_PASSWORD.toCharArray(), "Hello-Alice-2025!".toCharArray(), SOURCE))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("must not contain the user name")
        .hasMessageNotContaining("Hello-Alice");
  }

  @Test
  void aWeakNewPasswordIsRefusedWithEveryBrokenRule() {
    fixture.addAlice();

    assertThatThrownBy(
            () ->
                fixture.accounts.changePassword(
                    ALICE, ALICE_PASSWORD.toCharArray(), "password".toCharArray(), SOURCE))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("at least 15 characters")
        .hasMessageContaining("upper-case")
        .hasMessageContaining("digit");
  }

  @Test
  void theSamePasswordAgainIsRefused() {
    fixture.addAlice();

    assertThatThrownBy(
            () ->
                fixture.accounts.changePassword(
                    ALICE, ALICE_PASSWORD.toCharArray(), ALICE_PASSWORD.toCharArray(), SOURCE))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("must differ from the current one");
    assertThat(fixture.audit.events("password.change")).isEmpty();
  }
}
