package io.bulwark.security.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bulwark.api.audit.AuditOutcome;
import io.bulwark.api.security.PasswordPolicy;
import io.bulwark.api.security.Role;
import io.bulwark.api.security.Session;
import io.bulwark.api.security.UserAccount;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The first start creates "admin" once: with the installer's password if it meets the policy (and
 * refuses it with every broken rule if not), or with a generated password that meets the policy, is
 * handed back once, and must be changed at the first login. No password reaches the audit log.
 */
class FirstAdministratorTest {
  private static final String INSTALLER_PASSWORD = "Install-Night-2025#";

  private final AccountsFixture fixture = new AccountsFixture();

  @Test
  void theInstallersPasswordMakesAnAdminWhoNeedNotChangeIt() {
    Optional<char[]> shown =
        fixture.accounts.bootstrapAdmin(Optional.of(INSTALLER_PASSWORD.toCharArray()));

    assertThat(shown).isEmpty();
    UserAccount admin = fixture.users.user("admin").orElseThrow();
    assertThat(admin.role()).isEqualTo(Role.ADMIN);
    assertThat(admin.mustChangePassword()).isFalse();
    assertThat(
            AccountsFixture.HASHER.verify(INSTALLER_PASSWORD.toCharArray(), admin.passwordHash()))
        .isTrue();
    assertThat(fixture.audit.events("account.bootstrap"))
        .singleElement()
        .satisfies(e -> assertThat(e.outcome()).isEqualTo(AuditOutcome.SUCCESS));
    fixture.assertNoRecordContains(INSTALLER_PASSWORD);
  }

  @Test
  void aWeakInstallerPasswordIsRefusedWithEveryBrokenRuleAndNoAccount() {
    assertThatThrownBy(
            () -> fixture.accounts.bootstrapAdmin(Optional.of("admin-short".toCharArray())))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("BULWARK_ADMIN_PASSWORD")
        .hasMessageContaining("at least 15 characters")
        .hasMessageContaining("upper-case")
        .hasMessageContaining("digit")
        .hasMessageContaining("must not contain the user name")
        .hasMessageNotContaining("admin-short");
    assertThat(fixture.users.users()).isEmpty();
    assertThat(fixture.audit.events()).isEmpty();
  }

  @Test
  void aGeneratedPasswordMeetsThePolicyAndMustBeChangedAtFirstLogin() {
    char[] generated = fixture.accounts.bootstrapAdmin(Optional.empty()).orElseThrow();

    assertThat(generated).hasSize(20);
    assertThat(PasswordPolicy.standard().problems("admin", generated)).isEmpty();
    assertThat(fixture.users.user("admin").orElseThrow().mustChangePassword()).isTrue();
    Session session = fixture.accounts.login("admin", generated, AccountsFixture.SOURCE);
    assertThat(session.mustChangePassword()).isTrue();
    assertThat(session.role()).isEqualTo(Role.ADMIN);
    fixture.assertNoRecordContains(new String(generated));
  }

  @Test
  void twoGeneratedPasswordsDiffer() {
    char[] first = fixture.accounts.bootstrapAdmin(Optional.empty()).orElseThrow();
    AccountsFixture other = new AccountsFixture();
    char[] second = other.accounts.bootstrapAdmin(Optional.empty()).orElseThrow();

    assertThat(second).isNotEqualTo(first);
  }

  @Test
  void anExistingAccountMeansNothingIsCreated() {
    fixture.addAlice();

    assertThat(fixture.accounts.bootstrapAdmin(Optional.empty())).isEmpty();
    assertThat(fixture.users.user("admin")).isEmpty();
    assertThat(fixture.audit.events()).isEmpty();
  }

  @Test
  void withoutAnAuditLogNoAdminIsCreated() {
    fixture.audit.unavailable(true);

    assertThatThrownBy(() -> fixture.accounts.bootstrapAdmin(Optional.empty()))
        .isInstanceOf(io.bulwark.api.audit.AuditUnavailableException.class);
    assertThat(fixture.users.users()).isEmpty();
  }
}
