package io.bulwark.security.internal;

import io.bulwark.api.compliance.CheckResult;
import io.bulwark.api.compliance.ComplianceCheck;
import io.bulwark.api.security.CryptoModule;
import io.bulwark.api.security.CryptoModuleStatus;
import java.security.Provider;
import java.security.Security;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.bouncycastle.crypto.CryptoServicesRegistrar;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.component.annotations.Reference;

/**
 * The compliance checks of what this bundle owns: the FIPS module in approved-only mode ({@code
 * fips-approved-only}), the session idle limits ({@code session-idle-timeout}), the login lockout
 * ({@code login-lockout}) and the password policy ({@code password-policy}).
 */
public final class SecurityChecks {
  private SecurityChecks() {}

  /**
   * {@code fips-approved-only}: the module's self-tests passed, approved-only mode is on (for the
   * module and for the thread that asks), and BCFIPS and BCJSSE are the first security providers.
   */
  @Component(service = ComplianceCheck.class)
  public static final class FipsApprovedOnly implements ComplianceCheck {
    static final String ID = "fips-approved-only";
    private final CryptoModule crypto;
    private final Supplier<List<String>> providers;
    private final Supplier<Boolean> threadApproved;

    @Activate
    public FipsApprovedOnly(@Reference CryptoModule crypto) {
      this(
          crypto,
          () -> Arrays.stream(Security.getProviders()).map(Provider::getName).toList(),
          CryptoServicesRegistrar::isInApprovedOnlyMode);
    }

    FipsApprovedOnly(
        CryptoModule crypto, Supplier<List<String>> providers, Supplier<Boolean> threadApproved) {
      this.crypto = crypto;
      this.providers = providers;
      this.threadApproved = threadApproved;
    }

    @Override
    public String id() {
      return ID;
    }

    @Override
    public String title() {
      return "All cryptography runs in the FIPS 140-3 module, in approved-only mode";
    }

    @Override
    public CheckResult run(Instant now) {
      CryptoModuleStatus s;
      try {
        s = crypto.status();
      } catch (RuntimeException e) {
        return CheckResult.notReviewed(ID, "the cryptographic module does not answer: " + e, now);
      }
      List<String> order = providers.get();
      boolean thread = threadApproved.get();
      boolean first =
          order.size() >= 2 && order.get(0).equals("BCFIPS") && order.get(1).equals("BCJSSE");
      Map<String, String> evidence =
          Map.of(
              "module", s.name() + " " + s.version(),
              "approvedOnly", Boolean.toString(s.approvedOnly()),
              "selfTestsPassed", Boolean.toString(s.selfTestsPassed()),
              "approvedOnlyForThisThread", Boolean.toString(thread),
              "providers", String.join(", ", order.subList(0, Math.min(order.size(), 6))));
      if (s.approvedOnly() && s.selfTestsPassed() && thread && first) {
        return CheckResult.met(
            ID,
            s.name()
                + " "
                + s.version()
                + " passed its self-tests and runs in approved-only mode; BCFIPS and BCJSSE are"
                + " the first providers",
            evidence,
            now);
      }
      StringBuilder why = new StringBuilder();
      if (!s.selfTestsPassed()) {
        why.append("the module's self-tests did not pass; ");
      }
      if (!s.approvedOnly() || !thread) {
        why.append("approved-only mode is off; ");
      }
      if (!first) {
        why.append("the first security providers are ")
            .append(String.join(", ", order.subList(0, Math.min(order.size(), 2))))
            .append(", not BCFIPS and BCJSSE; ");
      }
      return CheckResult.open(ID, why.substring(0, why.length() - 2), evidence, now);
    }
  }

  /**
   * {@code session-idle-timeout}: a session ends after at most 15 minutes without use, an admin's
   * after at most 10 (the accounts' {@code sessionIdleSeconds} and {@code
   * adminSessionIdleSeconds}).
   */
  @Component(
      service = ComplianceCheck.class,
      configurationPid = LocalAccounts.PID,
      configurationPolicy = ConfigurationPolicy.OPTIONAL)
  public static final class SessionIdleTimeout implements ComplianceCheck {
    static final String ID = "session-idle-timeout";

    /** The longest idle time the STIG allows a non-privileged session (APSC-DV-000070). */
    static final int LIMIT_SECONDS = 900;

    /** The longest idle time the STIG allows an admin session (APSC-DV-000080). */
    static final int ADMIN_LIMIT_SECONDS = 600;

    private final int idleSeconds;
    private final int adminIdleSeconds;

    @Activate
    public SessionIdleTimeout(AccountsConfig config) {
      this.idleSeconds = config.sessionIdleSeconds();
      this.adminIdleSeconds = Math.min(config.adminSessionIdleSeconds(), idleSeconds);
    }

    @Override
    public String id() {
      return ID;
    }

    @Override
    public String title() {
      return "Sessions end after 15 minutes or less without use, an admin's after 10 or less";
    }

    @Override
    public CheckResult run(Instant now) {
      Map<String, String> evidence =
          Map.of(
              "setting",
              LocalAccounts.PID + " sessionIdleSeconds, adminSessionIdleSeconds",
              "sessionIdleSeconds",
              Integer.toString(idleSeconds),
              "adminSessionIdleSeconds",
              Integer.toString(adminIdleSeconds),
              "limitSeconds",
              Integer.toString(LIMIT_SECONDS),
              "adminLimitSeconds",
              Integer.toString(ADMIN_LIMIT_SECONDS));
      List<String> over = new java.util.ArrayList<>();
      if (idleSeconds > LIMIT_SECONDS) {
        over.add(
            "sessions live "
                + idleSeconds
                + " s without use, longer than the "
                + LIMIT_SECONDS
                + " s allowed: set sessionIdleSeconds to "
                + LIMIT_SECONDS
                + " or less");
      }
      if (adminIdleSeconds > ADMIN_LIMIT_SECONDS) {
        over.add(
            "admin sessions live "
                + adminIdleSeconds
                + " s without use, longer than the "
                + ADMIN_LIMIT_SECONDS
                + " s allowed: set adminSessionIdleSeconds to "
                + ADMIN_LIMIT_SECONDS
                + " or less");
      }
      return over.isEmpty()
          ? CheckResult.met(
              ID,
              "sessions end after "
                  + idleSeconds
                  + " s without use, an admin's after "
                  + adminIdleSeconds
                  + " s",
              evidence,
              now)
          : CheckResult.open(ID, String.join("; ", over), evidence, now);
    }
  }

  /**
   * {@code login-lockout}: three wrong passwords or fewer within 15 minutes or more lock the
   * account (the accounts' {@code lockoutAttempts} and {@code lockoutWindowSeconds}).
   */
  @Component(
      service = ComplianceCheck.class,
      configurationPid = LocalAccounts.PID,
      configurationPolicy = ConfigurationPolicy.OPTIONAL)
  public static final class LoginLockout implements ComplianceCheck {
    static final String ID = "login-lockout";
    private final AccountsConfig config;

    @Activate
    public LoginLockout(AccountsConfig config) {
      this.config = config;
    }

    @Override
    public String id() {
      return ID;
    }

    @Override
    public String title() {
      return "Three wrong passwords within 15 minutes lock the account";
    }

    @Override
    public CheckResult run(Instant now) {
      int attempts = config.lockoutAttempts();
      int window = config.lockoutWindowSeconds();
      Map<String, String> evidence =
          Map.of(
              "setting",
              LocalAccounts.PID + " lockoutAttempts, lockoutWindowSeconds, lockoutSeconds",
              "lockoutAttempts",
              Integer.toString(attempts),
              "lockoutWindowSeconds",
              Integer.toString(window),
              "lockoutSeconds",
              Integer.toString(config.lockoutSeconds()),
              "accountLockoutAttempts",
              Integer.toString(config.accountLockoutAttempts()));
      if (attempts <= 3 && window >= 900) {
        return CheckResult.met(
            ID,
            attempts
                + " wrong passwords from one address within "
                + window
                + " s lock the account for "
                + config.lockoutSeconds()
                + " s",
            evidence,
            now);
      }
      return CheckResult.open(
          ID,
          attempts
              + " wrong passwords within "
              + window
              + " s lock the account; the STIG asks for 3 within 900 s: set lockoutAttempts to 3"
              + " or less and lockoutWindowSeconds to 900 or more",
          evidence,
          now);
    }
  }

  /**
   * {@code password-policy}: the policy every new password meets is probed with passwords that
   * break one rule each (too short; no upper-case letter, lower-case letter, digit or other
   * character), which it must refuse, and one that breaks none, which it must accept.
   */
  @Component(service = ComplianceCheck.class)
  public static final class PasswordRules implements ComplianceCheck {
    static final String ID = "password-policy";
    private final io.bulwark.api.security.PasswordPolicy policy;

    public PasswordRules() {
      this(LocalAccounts.POLICY);
    }

    PasswordRules(io.bulwark.api.security.PasswordPolicy policy) {
      this.policy = policy;
    }

    @Override
    public String id() {
      return ID;
    }

    @Override
    public String title() {
      return "New passwords need 15 characters with upper-case, lower-case, digit and other";
    }

    @Override
    public CheckResult run(Instant now) {
      Map<String, String> probes = new java.util.LinkedHashMap<>();
      probes.put("14 characters", "Kq7#vbnmlkjhgf");
      probes.put("no upper-case letter", "kq7#vbnmlkjhgfds");
      probes.put("no lower-case letter", "KQ7#VBNMLKJHGFDS");
      probes.put("no digit", "Kqx#vbnmlkjhgfds");
      probes.put("no other character", "Kq7xvbnmlkjhgfds");
      Map<String, String> evidence = new java.util.TreeMap<>();
      evidence.put("minimumLength", Integer.toString(policy.minimumLength()));
      List<String> wrong = new java.util.ArrayList<>();
      probes.forEach(
          (what, password) -> {
            boolean refused = !policy.problems("probe", password.toCharArray()).isEmpty();
            evidence.put("refuses a password with " + what, Boolean.toString(refused));
            if (!refused) {
              wrong.add("a password with " + what + " is accepted");
            }
          });
      // a stricter length is compliant: the accepted probe is as long as the policy asks
      int length = Math.max(16, policy.minimumLength());
      String good = "Kq7#" + "vbnmlkjhgfdsazwxcpoiuytrem".repeat(4).substring(0, length - 4);
      boolean accepted = policy.problems("probe", good.toCharArray()).isEmpty();
      evidence.put("accepts " + length + " characters of every kind", Boolean.toString(accepted));
      if (!accepted) {
        wrong.add("a password that meets every rule is refused");
      }
      return wrong.isEmpty()
          ? CheckResult.met(
              ID,
              "the policy refuses passwords under "
                  + policy.minimumLength()
                  + " characters or without an upper-case letter, a lower-case letter, a digit or"
                  + " another character",
              evidence,
              now)
          : CheckResult.open(ID, String.join("; ", wrong), evidence, now);
    }
  }

  /**
   * {@code secrets-sealed}: the secret store's data-encryption key is sealed to the TPM, no clear
   * copy of it is on disk, and the store is not in development mode.
   */
  @Component(service = ComplianceCheck.class)
  public static final class SecretsSealed implements ComplianceCheck {
    static final String ID = "secrets-sealed";
    private final EncryptedSecretStore store;

    @Activate
    public SecretsSealed(@Reference EncryptedSecretStore store) {
      this.store = store;
    }

    @Override
    public String id() {
      return ID;
    }

    @Override
    public String title() {
      return "Secrets are encrypted under a key sealed to the TPM, with no clear copy on disk";
    }

    @Override
    public CheckResult run(Instant now) {
      EncryptedSecretStore.Posture p = store.posture();
      Map<String, String> evidence =
          Map.of(
              "folder",
              p.folder().toString(),
              "sealedBy",
              p.sealedBy().isEmpty() ? "nothing" : p.sealedBy(),
              "clearKeyFile",
              p.clearKeyFile()
                  ? p.folder().resolve(DataEncryptionKey.DEVELOPMENT_FILE) + " present"
                  : "absent",
              "developmentMode",
              Boolean.toString(p.developmentMode()),
              "secrets",
              Long.toString(p.secrets()),
              "cipher",
              "AES-256-GCM (FIPS module), one envelope per secret");
      List<String> wrong = new java.util.ArrayList<>();
      if (p.sealedBy().isEmpty()) {
        wrong.add("the data-encryption key is not sealed to a TPM");
      }
      if (p.clearKeyFile()) {
        wrong.add("a clear copy of the data-encryption key is on disk");
      }
      if (p.developmentMode()) {
        wrong.add(
            "the secret store runs in development mode (set developmentMode=false of "
                + EncryptedSecretStore.PID
                + " and start the TPM bundle)");
      }
      return wrong.isEmpty()
          ? CheckResult.met(
              ID,
              p.secrets() + " secrets are encrypted under a key sealed by " + p.sealedBy(),
              evidence,
              now)
          : CheckResult.open(ID, String.join("; ", wrong), evidence, now);
    }
  }

  /**
   * {@code default-password-changed}: no account still holds an initial password (one that must be
   * changed at the next login: the generated first administrator's, or one an admin set).
   */
  @Component(service = ComplianceCheck.class)
  public static final class InitialPasswordsChanged implements ComplianceCheck {
    static final String ID = "default-password-changed";
    private final io.bulwark.api.security.UserRepository users;

    @Activate
    public InitialPasswordsChanged(@Reference io.bulwark.api.security.UserRepository users) {
      this.users = users;
    }

    @Override
    public String id() {
      return ID;
    }

    @Override
    public String title() {
      return "No account still holds an initial password";
    }

    @Override
    public CheckResult run(Instant now) {
      List<io.bulwark.api.security.UserAccount> all = users.users();
      List<String> initial =
          all.stream()
              .filter(u -> u.mustChangePassword() && !u.disabled())
              .map(u -> u.name() + " (set " + u.passwordChangedAt() + ")")
              .sorted()
              .toList();
      Map<String, String> evidence =
          Map.of(
              "accounts",
              Integer.toString(all.size()),
              "stillInitial",
              initial.isEmpty() ? "none" : String.join(", ", initial),
              "fixedDefaultPassword",
              "none: the first administrator's comes from the installer or is generated once");
      return initial.isEmpty()
          ? CheckResult.met(
              ID, "all " + all.size() + " accounts have passwords their users chose", evidence, now)
          : CheckResult.open(
              ID,
              initial.size()
                  + " accounts still hold the initial password they were given: "
                  + String.join(", ", initial)
                  + "; log in as each and change it, or delete the account",
              evidence,
              now);
    }
  }
}
