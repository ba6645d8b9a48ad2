package io.bulwark.security.internal;

import static io.bulwark.security.internal.AccountsFixture.SOURCE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bulwark.api.audit.AuditUnavailableException;
import io.bulwark.api.security.ApiToken;
import io.bulwark.api.security.IssuedToken;
import io.bulwark.api.security.Principal;
import io.bulwark.api.security.Role;
import java.time.Duration;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

/**
 * API tokens are shown once as {@code bwk_<id>_<secret>}, stored only as an HMAC of the secret
 * keyed by a pepper from the secret store, authenticate until they expire or are revoked, and are
 * capped at a year; creation and revocation are audited without the secret.
 */
class ApiTokenTest {
  private final AccountsFixture fixture = new AccountsFixture();

  private IssuedToken issue(Duration validity) {
    return fixture.accounts.createToken("admin", "slurm prolog", Role.OPERATOR, validity, SOURCE);
  }

  @Test
  void anIssuedTokenAuthenticatesAsItsRole() {
    IssuedToken issued = issue(Duration.ofDays(30));

    assertThat(issued.token()).matches("bwk_[0-9a-f]{24}_[A-Za-z0-9_-]{43}");
    assertThat(issued.token()).startsWith("bwk_" + issued.stored().id() + "_");
    assertThat(fixture.accounts.authenticateToken(issued.token()))
        .hasValue(new Principal(issued.stored().id(), Role.OPERATOR, Principal.Kind.TOKEN));
    assertThat(issued.stored().expiresAt())
        .isEqualTo(fixture.clock.instant().plus(Duration.ofDays(30)));
    assertThat(fixture.audit.events("token.create")).hasSize(1);
    fixture.assertNoRecordContains(secretOf(issued));
    assertThat(issued.toString()).doesNotContain(secretOf(issued));
  }

  @Test
  void onlyThePepperedHmacOfTheSecretIsStored() throws Exception {
    IssuedToken issued = issue(Duration.ofDays(1));
    ApiToken stored = fixture.tokens.token(issued.stored().id()).orElseThrow();
    byte[] pepper = fixture.secrets.get("api.token.pepper").orElseThrow();

    Mac mac = Mac.getInstance("HmacSHA256", "BCFIPS");
    mac.init(new SecretKeySpec(pepper, "HmacSHA256"));
    byte[] expected = mac.doFinal(Base64.getUrlDecoder().decode(secretOf(issued)));

    assertThat(pepper).hasSize(32);
    assertThat(stored.secretHash())
        .isEqualTo(
            "hmac-sha256$" + Base64.getUrlEncoder().withoutPadding().encodeToString(expected));
    assertThat(stored.toString()).doesNotContain(secretOf(issued));
  }

  @Test
  void thePepperSurvivesANewInstance() {
    IssuedToken issued = issue(Duration.ofDays(1));
    LocalAccounts restarted =
        new LocalAccounts(
            fixture.users,
            fixture.tokens,
            AccountsFixture.HASHER,
            fixture.secrets,
            fixture.audit,
            Fips.module(),
            AccountsOptions.defaults(),
            fixture.clock,
            AccountsFixture.DUMMY_HASH);

    assertThat(restarted.authenticateToken(issued.token())).isPresent();
  }

  @Test
  void aTamperedUnknownOrMalformedTokenIsRefused() {
    IssuedToken issued = issue(Duration.ofDays(1));
    String token = issued.token();
    char last = token.charAt(token.length() - 2);
    String tampered =
        token.substring(0, token.length() - 2)
            + (last == 'A' ? 'B' : 'A')
            + token.charAt(token.length() - 1);
    String otherId = "bwk_" + "0".repeat(24) + "_" + secretOf(issued);

    assertThat(fixture.accounts.authenticateToken(tampered)).isEmpty();
    assertThat(fixture.accounts.authenticateToken(otherId)).isEmpty();
    assertThat(fixture.accounts.authenticateToken("bwk_nonsense")).isEmpty();
    assertThat(fixture.accounts.authenticateToken("Bearer " + token)).isEmpty();
    assertThat(fixture.accounts.authenticateToken(null)).isEmpty();
    assertThat(fixture.accounts.authenticateToken(token)).isPresent();
  }

  @Test
  void aTokenExpires() {
    IssuedToken issued = issue(Duration.ofHours(1));

    fixture.clock.advance(Duration.ofMinutes(59));
    assertThat(fixture.accounts.authenticateToken(issued.token())).isPresent();
    fixture.clock.advance(Duration.ofMinutes(1));
    assertThat(fixture.accounts.authenticateToken(issued.token())).isEmpty();
  }

  @Test
  void validityIsCappedAtAYear() {
    IssuedToken issued = issue(Duration.ofDays(5000));

    assertThat(issued.stored().expiresAt())
        .isEqualTo(fixture.clock.instant().plus(Duration.ofDays(365)));
  }

  @Test
  void aRevokedTokenNoLongerAuthenticates() {
    IssuedToken issued = issue(Duration.ofDays(30));

    assertThat(fixture.accounts.revokeToken("admin", issued.stored().id(), SOURCE)).isTrue();

    assertThat(fixture.accounts.authenticateToken(issued.token())).isEmpty();
    assertThat(fixture.tokens.token(issued.stored().id()).orElseThrow().revoked()).isTrue();
    assertThat(fixture.audit.events("token.revoke")).hasSize(1);
    assertThat(fixture.accounts.revokeToken("admin", "0".repeat(24), SOURCE)).isFalse();
  }

  @Test
  void badNamesAndValiditiesAreRefused() {
    assertThatThrownBy(
            () ->
                fixture.accounts.createToken(
                    "admin", " ", Role.AUDITOR, Duration.ofDays(1), SOURCE))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(
            () -> fixture.accounts.createToken("admin", "ci", Role.AUDITOR, Duration.ZERO, SOURCE))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(fixture.tokens.tokens()).isEmpty();
  }

  @Test
  void withoutAnAuditLogNoTokenIsCreatedOrRevoked() {
    IssuedToken issued = issue(Duration.ofDays(30));
    fixture.audit.unavailable(true);

    assertThatThrownBy(() -> issue(Duration.ofDays(30)))
        .isInstanceOf(AuditUnavailableException.class);
    assertThatThrownBy(() -> fixture.accounts.revokeToken("admin", issued.stored().id(), SOURCE))
        .isInstanceOf(AuditUnavailableException.class);
    assertThat(fixture.tokens.tokens()).hasSize(1);
    assertThat(fixture.accounts.authenticateToken(issued.token())).isPresent();
  }

  private static String secretOf(IssuedToken issued) {
    return issued.token().substring(issued.token().indexOf('_', "bwk_".length()) + 1);
  }
}
