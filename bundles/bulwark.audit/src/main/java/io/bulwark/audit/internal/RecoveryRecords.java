package io.bulwark.audit.internal;

import io.bulwark.api.audit.AuditEvent;
import io.bulwark.api.audit.AuditOutcome;

/**
 * The records that may be written into the part of the quota kept back ({@link
 * AuditOptions#reserveBytes()}): what an administrator needs to get a full log under control
 * (successful logins, logouts, password changes, unlocking an account, setting changes that raise
 * the quota, secret accesses the appliance makes to run) and the audit log's own records. Failed
 * logins and refused requests never are, so that whoever fills the log cannot fill the reserve too.
 */
final class RecoveryRecords {
  private RecoveryRecords() {}

  /** Returns true if {@code event} may use the reserve. */
  static boolean admits(AuditEvent event) {
    String action = event.action();
    if (action.startsWith("audit.")
        || action.startsWith("secret.")
        || action.startsWith("setting")
        || action.equals("session.logout")
        || action.equals("session.expired")
        || action.equals("session.ended")
        || action.equals("user.unlock")
        || action.equals("account.bootstrap")) {
      return true;
    }
    return event.outcome() == AuditOutcome.SUCCESS
        && (action.equals("session.login") || action.equals("password.change"));
  }
}
