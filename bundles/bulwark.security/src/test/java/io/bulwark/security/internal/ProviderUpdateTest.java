package io.bulwark.security.internal;

import static io.bulwark.security.internal.AccountsFixture.ALICE;
import static io.bulwark.security.internal.AccountsFixture.ALICE_PASSWORD;
import static io.bulwark.security.internal.AccountsFixture.SOURCE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bulwark.api.audit.AuditUnavailableException;
import io.bulwark.api.security.IssuedToken;
import io.bulwark.api.security.Role;
import io.bulwark.api.security.Session;
import io.bulwark.api.store.StoreUnavailableException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The accounts outlive an update of the store or the audit bundle: sessions and tokens already in
 * use keep working while the repositories or the audit log are away, what needs them is refused as
 * they refuse (503 at the API), and all works again when they are back.
 */
class ProviderUpdateTest {
  private final AccountsFixture fixture = new AccountsFixture();
  private final LocalAccounts accounts =
      LocalAccounts.unbound(
          AccountsFixture.HASHER,
          fixture.secrets,
          Fips.module(),
          AccountsOptions.defaults(),
          fixture.clock,
          AccountsFixture.DUMMY_HASH);

  @Test
  void sessionsAndTokensInUseSurviveTheStoreAndTheAuditLogGoingAway() {
    bindAll();
    fixture.addUser("root", Role.ADMIN, "Admin-Pass-Word-1!", false);
    fixture.addAlice();
    Session session = accounts.login(ALICE, ALICE_PASSWORD.toCharArray(), SOURCE);
    IssuedToken token =
        accounts.createToken("root", "ci", Role.OPERATOR, Duration.ofDays(3), SOURCE);
    assertThat(accounts.authenticateToken(token.token())).isPresent();

    // when the store's bundle is updated
    accounts.unbindUsers(fixture.users);
    accounts.unbindTokens(fixture.tokens);
    assertThat(accounts.session(session.id())).as("the session").isPresent();
    assertThat(accounts.authenticateToken(token.token())).as("a token used before").isPresent();
    assertThatThrownBy(() -> accounts.login(ALICE, ALICE_PASSWORD.toCharArray(), SOURCE))
        .isInstanceOf(StoreUnavailableException.class)
        .hasMessageContaining("the store is not running");
    assertThatThrownBy(
            () -> accounts.authenticateToken("bwk_" + "0".repeat(24) + "_" + "A".repeat(43)))
        .as("a token never seen is not guessed at")
        .isInstanceOfAny(StoreUnavailableException.class);

    // when the audit bundle is updated too
    accounts.unbindAudit(fixture.audit);
    assertThat(accounts.session(session.id())).isPresent();
    assertThatThrownBy(
            () -> accounts.createToken("root", "more", Role.AUDITOR, Duration.ofDays(1), SOURCE))
        .isInstanceOfAny(AuditUnavailableException.class, StoreUnavailableException.class);

    // when both are back
    bindAll();
    assertThat(accounts.login(ALICE, ALICE_PASSWORD.toCharArray(), SOURCE).user()).isEqualTo(ALICE);
    assertThat(accounts.revokeToken("root", token.stored().id(), SOURCE)).isTrue();
    accounts.unbindTokens(fixture.tokens);
    assertThatThrownBy(() -> accounts.authenticateToken(token.token()))
        .as("a revoked token is not remembered")
        .isInstanceOf(StoreUnavailableException.class);
  }

  private void bindAll() {
    accounts.bindUsers(fixture.users);
    accounts.bindTokens(fixture.tokens);
    accounts.bindAudit(fixture.audit);
  }
}
