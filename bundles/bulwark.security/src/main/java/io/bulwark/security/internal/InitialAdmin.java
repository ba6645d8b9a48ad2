package io.bulwark.security.internal;

import io.bulwark.api.security.Accounts;
import java.lang.System.Logger.Level;
import java.util.Arrays;
import java.util.Optional;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

/**
 * Creates the first administrator when there is no account yet: with the installer's password from
 * {@code BULWARK_ADMIN_PASSWORD} (it must meet the password policy; no forced change), or with a
 * generated one that is shown once on the console and must be changed at the first login. Never a
 * fixed default; the password is never logged. Registered as a service once the administrator
 * exists, so that the start-up check can wait for it: a password that breaks the policy stops
 * start-up.
 */
@Component(immediate = true, service = InitialAdmin.class)
public final class InitialAdmin {
  static final String VARIABLE = "BULWARK_ADMIN_PASSWORD";
  private static final System.Logger LOG = System.getLogger(InitialAdmin.class.getName());

  @Activate
  public InitialAdmin(@Reference Accounts accounts) {
    String installer = System.getenv(VARIABLE);
    char[] given = installer == null || installer.isEmpty() ? null : installer.toCharArray();
    try {
      Optional<char[]> generated = accounts.bootstrapAdmin(Optional.ofNullable(given));
      generated.ifPresent(InitialAdmin::showOnce);
      if (generated.isEmpty() && given != null) {
        LOG.log(Level.INFO, "Initial administrator 'admin' uses the password from " + VARIABLE);
      }
    } finally {
      if (given != null) {
        Arrays.fill(given, '\0');
      }
    }
  }

  /** Writes the generated password to the console (not the log), once, at first start. */
  private static void showOnce(char[] password) {
    System.err.println(
        "\n  Bulwark first start: the administrator account is 'admin' with the password\n\n    "
            + new String(password)
            + "\n\n  It is shown this once and must be changed at the first login.\n");
    Arrays.fill(password, '\0');
  }
}
