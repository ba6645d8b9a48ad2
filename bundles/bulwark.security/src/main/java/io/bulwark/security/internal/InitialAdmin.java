package io.bulwark.security.internal;

import io.bulwark.api.audit.AuditLog;
import io.bulwark.api.security.CryptoModule;
import io.bulwark.api.security.PasswordHasher;
import io.bulwark.api.security.UserRepository;
import io.bulwark.api.system.ConsoleNotice;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.util.Arrays;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;

/**
 * Creates the first administrator when there is no account yet: with the installer's password from
 * {@code BULWARK_ADMIN_PASSWORD} (it must meet the password policy; no forced change), or with a
 * generated one that is shown once on the console and must be changed at the first login. Never a
 * fixed default; the password is never logged. Registered as a service once the administrator
 * exists, so that the start-up check can wait for it: a password that breaks the policy stops
 * start-up.
 */
@Component(
    immediate = true,
    service = {InitialAdmin.class, ConsoleNotice.class})
public final class InitialAdmin implements ConsoleNotice {
  /** If no runtime shows the notice after start-up within this time, it is shown anyway. */
  static final long SHOW_ANYWAY_AFTER_MILLIS = 60_000;

  private char[] pending;
  private java.util.Timer fallback;
  static final String VARIABLE = "BULWARK_ADMIN_PASSWORD";
  private static final System.Logger LOG = System.getLogger(InitialAdmin.class.getName());

  /**
   * Runs once the user repository and the audit log are there, with them (not through the accounts,
   * which bind them dynamically and may not have them yet). Activated again after the store or the
   * audit bundle is updated, when it finds the administrator there and does nothing.
   */
  @Activate
  public InitialAdmin(
      @Reference UserRepository users,
      @Reference AuditLog audit,
      @Reference PasswordHasher hasher,
      @Reference CryptoModule crypto) {
    String installer = System.getenv(VARIABLE);
    char[] given = installer == null || installer.isEmpty() ? null : installer.toCharArray();
    FirstAdministrator first =
        new FirstAdministrator(
            users,
            hasher,
            new AuditTrail(audit),
            crypto.random(),
            Clock.systemUTC(),
            new ReentrantLock());
    try {
      Optional<char[]> generated = first.create(Optional.ofNullable(given));
      generated.ifPresent(this::holdForConsole);
      if (generated.isEmpty() && given != null) {
        LOG.log(Level.INFO, "Initial administrator 'admin' uses the password from " + VARIABLE);
      }
    } finally {
      if (given != null) {
        Arrays.fill(given, '\0');
      }
    }
  }

  /**
   * Keeps the generated password until the runtime shows it on the console after "Bulwark started"
   * (not the log); shown anyway if no runtime does within {@link #SHOW_ANYWAY_AFTER_MILLIS}.
   */
  private synchronized void holdForConsole(char[] password) {
    pending = password;
    System.err.println(
        "\n  Bulwark first start: the administrator's generated password is shown once, after"
            + " 'Bulwark started'.\n");
    fallback = new java.util.Timer("bulwark-initial-admin-notice", true);
    fallback.schedule(
        new java.util.TimerTask() {
          @Override
          public void run() {
            String text = notice();
            if (!text.isEmpty()) {
              System.err.println(text);
              shown();
            }
          }
        },
        SHOW_ANYWAY_AFTER_MILLIS);
  }

  @Override
  public synchronized String notice() {
    if (pending == null) {
      return "";
    }
    return "\n  Bulwark first start: the administrator account is 'admin' with the password\n\n    "
        + new String(pending)
        + "\n\n  It is shown this once and must be changed at the first login.\n";
  }

  @Override
  public synchronized void shown() {
    if (pending != null) {
      Arrays.fill(pending, '\0');
      pending = null;
    }
    if (fallback != null) {
      fallback.cancel();
      fallback = null;
    }
  }

  @Deactivate
  void deactivate() {
    shown();
  }
}
