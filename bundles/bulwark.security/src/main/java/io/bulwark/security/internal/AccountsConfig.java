package io.bulwark.security.internal;

import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

/**
 * The configuration of local accounts (PID {@code io.bulwark.security.accounts}): login lockout,
 * session idle timeout and the longest API token validity. Read once by {@link LocalAccounts} and
 * turned into {@link AccountsOptions}.
 */
@ObjectClassDefinition(
    name = "Bulwark local accounts",
    description = "Login lockout, session idle timeout and API token lifetime.")
public @interface AccountsConfig {

  @AttributeDefinition(
      name = "Lockout attempts",
      description =
          "Failed logins from one address within the lockout window that lock the account for"
              + " that address.",
      min = "1",
      max = "100")
  int lockoutAttempts() default 3;

  @AttributeDefinition(
      name = "Account lockout attempts",
      description =
          "Failed logins from all addresses together within the lockout window that lock the"
              + " account for every address but the appliance's own console (loopback).",
      min = "1",
      max = "1000")
  int accountLockoutAttempts() default 10;

  @AttributeDefinition(
      name = "Lockout window (seconds)",
      description = "How far back failed logins count towards lockout.",
      min = "1",
      max = "86400")
  int lockoutWindowSeconds() default 900;

  @AttributeDefinition(
      name = "Lockout (seconds)",
      description = "How long a locked account stays locked.",
      min = "1",
      max = "86400")
  int lockoutSeconds() default 900;

  @AttributeDefinition(
      name = "Session idle timeout (seconds)",
      description = "A session unused this long ends; the user must log in again.",
      min = "60",
      max = "86400")
  int sessionIdleSeconds() default 900;

  @AttributeDefinition(
      name = "Admin session idle timeout (seconds)",
      description =
          "An admin's session unused this long ends (the STIG allows admins 10 minutes); at most"
              + " the session idle timeout.",
      min = "60",
      max = "86400")
  int adminSessionIdleSeconds() default 600;

  @AttributeDefinition(
      name = "Longest API token validity (days)",
      description = "Tokens requested for longer are capped to this.",
      min = "1",
      max = "3650")
  int tokenMaxDays() default 365;
}
