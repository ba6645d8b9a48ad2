package io.bulwark.security.internal;

import static io.bulwark.security.internal.AccountsFixture.ALICE;
import static io.bulwark.security.internal.AccountsFixture.ALICE_PASSWORD;
import static io.bulwark.security.internal.AccountsFixture.SOURCE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bulwark.api.audit.AuditUnavailableException;
import io.bulwark.api.security.Role;
import io.bulwark.api.security.Session;
import io.bulwark.api.security.UserAccount;
import org.junit.jupiter.api.Test;

/**
 * An administrator creates users who must change their initial password, and deletes them (their
 * sessions end); names and passwords are checked, the last administrator stays, and nothing changes
 * without an audit record.
 */
class UserAdministrationTest {
  private static final String BOB_PASSWORD = "Initial-Pass-Word-3x";

  private final AccountsFixture fixture = new AccountsFixture();

  @Test
  void aNewUserMustChangeTheInitialPassword() {
    fixture.addUser("admin", Role.ADMIN, ALICE_PASSWORD, false);

    UserAccount bob =
        fixture.accounts.createUser(
            "admin", "bob", Role.AUDITOR, BOB_PASSWORD.toCharArray(), SOURCE);

    assertThat(bob.mustChangePassword()).isTrue();
    assertThat(fixture.users.user("bob")).hasValue(bob);
    assertThat(fixture.audit.events("user.create"))
        .singleElement()
        .satisfies(
            e -> {
              assertThat(e.actor()).isEqualTo("admin");
              assertThat(e.target()).isEqualTo("bob");
              assertThat(e.details()).containsEntry("role", "AUDITOR");
            });
    fixture.assertNoRecordContains(BOB_PASSWORD);
  }

  @Test
  void badNamesTakenNamesAndWeakPasswordsAreRefused() {
    fixture.addAlice();

    assertThatThrownBy(
            () ->
                fixture.accounts.createUser(
                    "admin", "Bob Smith", Role.AUDITOR, BOB_PASSWORD.toCharArray(), SOURCE))
        .hasMessageContaining("not a valid user name");
    assertThatThrownBy(
            () ->
                fixture.accounts.createUser(
                    "admin", ALICE, Role.AUDITOR, BOB_PASSWORD.toCharArray(), SOURCE))
        .hasMessageContaining("already exists");
    assertThatThrownBy(
            () ->
                fixture.accounts.createUser(
                    "admin", "bob", Role.AUDITOR, "bob-is-cool".toCharArray(), SOURCE))
        .hasMessageContaining("must not contain the user name");
    assertThat(fixture.users.users()).hasSize(1);
    assertThat(fixture.audit.events()).isEmpty();
  }

  @Test
  void deletingAUserEndsTheirSessions() {
    fixture.addUser("admin", Role.ADMIN, "Admin-Pass-Word-1!", false);
    fixture.addAlice();
    Session session = fixture.accounts.login(ALICE, ALICE_PASSWORD.toCharArray(), SOURCE);

    assertThat(fixture.accounts.deleteUser("admin", ALICE, SOURCE)).isTrue();

    assertThat(fixture.users.user(ALICE)).isEmpty();
    assertThat(fixture.accounts.session(session.id())).isEmpty();
    assertThat(fixture.audit.events("user.delete")).hasSize(1);
    assertThat(fixture.accounts.deleteUser("admin", ALICE, SOURCE)).isFalse();
  }

  @Test
  void deletingAnAdministratorRevokesTheTokensItCreated() {
    fixture.addUser("root", Role.ADMIN, "Admin-Pass-Word-1!", false);
    fixture.addUser("carol", Role.ADMIN, "Carol-Pass-Word-2!", false);
    var issued =
        fixture.accounts.createToken(
            "carol", "ci", Role.OPERATOR, java.time.Duration.ofDays(30), SOURCE);
    var kept =
        fixture.accounts.createToken(
            "root", "backup", Role.AUDITOR, java.time.Duration.ofDays(30), SOURCE);
    assertThat(fixture.accounts.authenticateToken(issued.token())).isPresent();

    assertThat(fixture.accounts.deleteUser("root", "carol", SOURCE)).isTrue();

    assertThat(fixture.accounts.authenticateToken(issued.token()))
        .as("a token of the deleted administrator")
        .isEmpty();
    assertThat(fixture.accounts.authenticateToken(kept.token())).isPresent();
    assertThat(fixture.audit.events("token.revoke"))
        .singleElement()
        .satisfies(
            e -> assertThat(e.details()).containsEntry("reason", "its creator carol was deleted"));
  }

  @Test
  void theLastAdministratorCannotBeDeleted() {
    fixture.addUser("admin", Role.ADMIN, "Admin-Pass-Word-1!", false);

    assertThatThrownBy(() -> fixture.accounts.deleteUser("admin", "admin", SOURCE))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("last administrator");
    assertThat(fixture.users.user("admin")).isPresent();
  }

  @Test
  void withoutAnAuditLogNothingChanges() {
    fixture.addUser("admin", Role.ADMIN, "Admin-Pass-Word-1!", false);
    fixture.addAlice();
    fixture.audit.unavailable(true);

    assertThatThrownBy(() -> fixture.accounts.deleteUser("admin", ALICE, SOURCE))
        .isInstanceOf(AuditUnavailableException.class);
    assertThat(fixture.users.user(ALICE)).isPresent();
  }
}
