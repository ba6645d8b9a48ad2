package io.bulwark.security.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.bulwark.api.compliance.CheckResult;
import io.bulwark.api.compliance.CheckStatus;
import io.bulwark.api.security.CryptoModule;
import io.bulwark.api.security.CryptoModuleStatus;
import io.bulwark.testing.TypedConfig;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The security bundle's compliance checks: each verdict, and the evidence it rests on. */
class SecurityChecksTest {
  private final Instant now = Instant.parse("2026-12-04T12:00:00Z");

  private static CryptoModule module(boolean approved, boolean selfTests) {
    return new CryptoModule() {
      @Override
      public CryptoModuleStatus status() {
        return new CryptoModuleStatus("BouncyCastle FIPS", "2.1.3", approved, selfTests);
      }

      @Override
      public SecureRandom random() {
        throw new UnsupportedOperationException();
      }
    };
  }

  private CheckResult fips(
      boolean approved, boolean selfTests, List<String> providers, boolean thread) {
    return new SecurityChecks.FipsApprovedOnly(
            module(approved, selfTests), () -> providers, () -> thread)
        .run(now);
  }

  @Test
  void theFipsModuleInApprovedOnlyModeFirstAmongTheProvidersIsMetAndAnythingLessIsOpen() {
    List<String> good = List.of("BCFIPS", "BCJSSE", "SUN");
    CheckResult met = fips(true, true, good, true);
    assertThat(met.status()).isEqualTo(CheckStatus.NOT_A_FINDING);
    assertThat(met.evidence())
        .containsEntry("module", "BouncyCastle FIPS 2.1.3")
        .containsEntry("approvedOnly", "true")
        .containsEntry("selfTestsPassed", "true")
        .containsEntry("providers", "BCFIPS, BCJSSE, SUN");

    CheckResult sunFirst = fips(true, true, List.of("SUN", "BCFIPS", "BCJSSE"), true);
    assertThat(sunFirst.status()).isEqualTo(CheckStatus.OPEN);
    assertThat(sunFirst.summary()).contains("SUN, BCFIPS, not BCFIPS and BCJSSE");

    assertThat(fips(false, true, good, true).summary()).isEqualTo("approved-only mode is off");
    assertThat(fips(true, true, good, false).status()).isEqualTo(CheckStatus.OPEN);
    assertThat(fips(true, false, good, true).summary())
        .isEqualTo("the module's self-tests did not pass");

    CryptoModule away =
        new CryptoModule() {
          @Override
          public CryptoModuleStatus status() {
            throw new IllegalStateException("stopped");
          }

          @Override
          public SecureRandom random() {
            throw new UnsupportedOperationException();
          }
        };
    assertThat(new SecurityChecks.FipsApprovedOnly(away, () -> good, () -> true).run(now).status())
        .isEqualTo(CheckStatus.NOT_REVIEWED);
  }

  @Test
  void aSessionIdleLimitOfFifteenMinutesOrLessIsMetAndALongerOneIsOpenSayingWhatToSet() {
    CheckResult fifteen =
        new SecurityChecks.SessionIdleTimeout(TypedConfig.of(AccountsConfig.class, Map.of()))
            .run(now);
    assertThat(fifteen.status()).isEqualTo(CheckStatus.NOT_A_FINDING);
    assertThat(fifteen.evidence())
        .containsEntry("sessionIdleSeconds", "900")
        .containsEntry("limitSeconds", "900");

    CheckResult half =
        new SecurityChecks.SessionIdleTimeout(
                TypedConfig.of(AccountsConfig.class, Map.of("sessionIdleSeconds", 1800)))
            .run(now);
    assertThat(half.status()).isEqualTo(CheckStatus.OPEN);
    assertThat(half.summary()).contains("1800 s").contains("set sessionIdleSeconds to 900 or less");
    assertThat(half.evidence())
        .containsEntry(
            "setting", LocalAccounts.PID + " sessionIdleSeconds, adminSessionIdleSeconds");
    assertThat(fifteen.evidence()).containsEntry("adminSessionIdleSeconds", "600");

    CheckResult adminFifteen =
        new SecurityChecks.SessionIdleTimeout(
                TypedConfig.of(AccountsConfig.class, Map.of("adminSessionIdleSeconds", 900)))
            .run(now);
    assertThat(adminFifteen.status()).isEqualTo(CheckStatus.OPEN);
    assertThat(adminFifteen.summary())
        .isEqualTo(
            "admin sessions live 900 s without use, longer than the 600 s allowed: set"
                + " adminSessionIdleSeconds to 600 or less");
  }

  @Test
  void theLockoutOfThreeAttemptsInFifteenMinutesIsMetAndALaxerOneIsOpen() {
    CheckResult standard =
        new SecurityChecks.LoginLockout(TypedConfig.of(AccountsConfig.class, Map.of())).run(now);
    assertThat(standard.status()).isEqualTo(CheckStatus.NOT_A_FINDING);
    assertThat(standard.evidence())
        .containsEntry("lockoutAttempts", "3")
        .containsEntry("lockoutWindowSeconds", "900");
    CheckResult five =
        new SecurityChecks.LoginLockout(
                TypedConfig.of(
                    AccountsConfig.class,
                    Map.of("lockoutAttempts", 5, "accountLockoutAttempts", 10)))
            .run(now);
    assertThat(five.status()).isEqualTo(CheckStatus.OPEN);
    assertThat(five.summary()).contains("set lockoutAttempts to 3 or less");
  }

  @Test
  void thePasswordPolicyIsProbedRuleByRule() {
    CheckResult standard = new SecurityChecks.PasswordRules().run(now);
    assertThat(standard.status()).isEqualTo(CheckStatus.NOT_A_FINDING);
    assertThat(standard.evidence())
        .containsEntry("minimumLength", "15")
        .containsEntry("refuses a password with 14 characters", "true")
        .containsEntry("refuses a password with no other character", "true")
        .containsEntry("accepts 16 characters of every kind", "true");
    // A stricter policy (20 characters) is met too: its accepted probe is 20 characters long.
    CheckResult twenty =
        new SecurityChecks.PasswordRules(new io.bulwark.api.security.PasswordPolicy(20)).run(now);
    assertThat(twenty.status()).isEqualTo(CheckStatus.NOT_A_FINDING);
    assertThat(twenty.evidence())
        .containsEntry("minimumLength", "20")
        .containsEntry("accepts 20 characters of every kind", "true");
  }

  @TempDir java.nio.file.Path folder;

  @Test
  void secretsInDevelopmentModeAreOpenAndSealedToTheTpmAreMet() {
    EncryptedSecretStore development =
        new EncryptedSecretStore(
            Fips.module(), null, new SecretStoreOptions(folder.resolve("dev"), true));
    development.put("bmc/node-1", "s3cret".getBytes(java.nio.charset.StandardCharsets.UTF_8));
    CheckResult open = new SecurityChecks.SecretsSealed(development).run(now);
    assertThat(open.status()).isEqualTo(CheckStatus.OPEN);
    assertThat(open.summary())
        .contains(
            "not sealed to a TPM", "a clear copy", "development mode (set developmentMode=false");
    assertThat(open.evidence()).containsEntry("sealedBy", "nothing").containsEntry("secrets", "1");

    EncryptedSecretStore sealed =
        new EncryptedSecretStore(
            Fips.module(),
            new XorKeySealer(),
            new SecretStoreOptions(folder.resolve("tpm"), false));
    sealed.put("bmc/node-1", "s3cret".getBytes(java.nio.charset.StandardCharsets.UTF_8));
    CheckResult met = new SecurityChecks.SecretsSealed(sealed).run(now);
    assertThat(met.status()).as(met.summary()).isEqualTo(CheckStatus.NOT_A_FINDING);
    assertThat(met.evidence())
        .containsEntry("clearKeyFile", "absent")
        .containsEntry("developmentMode", "false");
    assertThat(met.evidence().get("sealedBy")).contains("XOR test double");
  }

  @Test
  void anAccountStillOnItsInitialPasswordIsOpenNamingIt() {
    InMemoryUsers users = new InMemoryUsers();
    Instant set = Instant.parse("2026-12-01T00:00:00Z");
    users.save(
        new io.bulwark.api.security.UserAccount(
            "admin",
            io.bulwark.api.security.Role.ADMIN,
            "hash",
            false,
            set,
            List.of(),
            null,
            false));
    CheckResult met = new SecurityChecks.InitialPasswordsChanged(users).run(now);
    assertThat(met.status()).isEqualTo(CheckStatus.NOT_A_FINDING);
    assertThat(met.evidence()).containsEntry("stillInitial", "none");
    users.save(
        new io.bulwark.api.security.UserAccount(
            "assessor",
            io.bulwark.api.security.Role.AUDITOR,
            "hash",
            true,
            set,
            List.of(),
            null,
            false));
    CheckResult open = new SecurityChecks.InitialPasswordsChanged(users).run(now);
    assertThat(open.status()).isEqualTo(CheckStatus.OPEN);
    assertThat(open.summary()).contains("assessor (set 2026-12-01T00:00:00Z)", "change it");
  }
}
