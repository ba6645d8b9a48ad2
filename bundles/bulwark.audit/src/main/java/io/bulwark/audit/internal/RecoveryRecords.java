package io.bulwark.audit.internal;

import io.bulwark.api.audit.AuditEvent;
import io.bulwark.api.audit.AuditOutcome;

/**
 * The records that may be written into the part of the quota kept back ({@link
 * AuditOptions#reserveBytes()}), exactly those docs/security.md names: what an administrator needs
 * to get a full log under control (a successful login, a logout or a session that expired,
 * unlocking an account), pulling the remediation kill switch (stopping automation is a safety
 * action, never refused for want of room), and the audit log's own records (its integrity records,
 * exports, and reads of its own keys). Nothing else is: not a failed login or a refused request, so
 * that whoever fills the log cannot fill the reserve too, and not the routine work of a logged-in
 * user (a comment, a token, a setting, a password change), which waits until the log is exported.
 */
final class RecoveryRecords {
  private RecoveryRecords() {}

  /** Returns true if {@code event} may use the reserve. */
  static boolean admits(AuditEvent event) {
    String action = event.action();
    if (action.startsWith("audit.")) {
      return true;
    }
    if (action.startsWith("secret.")) {
      return event.target().equals(AuditKeys.HMAC_NAME)
          || event.target().equals(AuditKeys.SIGNING_NAME);
    }
    if (event.outcome() != AuditOutcome.SUCCESS) {
      return false;
    }
    return switch (action) {
      case "session.login", "session.logout", "session.expired", "user.unlock" -> true;
      case "remediation.kill-switch" -> "true".equals(event.details().get("on"));
      default -> false;
    };
  }
}
