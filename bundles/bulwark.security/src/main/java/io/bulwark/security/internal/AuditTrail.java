package io.bulwark.security.internal;

import io.bulwark.api.audit.AuditEvent;
import io.bulwark.api.audit.AuditLog;
import io.bulwark.api.audit.AuditOutcome;
import io.bulwark.api.audit.AuditUnavailableException;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.Map;
import java.util.Objects;

/**
 * Records what local accounts do in the {@link AuditLog}: {@link #record} for an action that must
 * not happen unless it is recorded, {@link #tryRecord} for a refusal or an ending that happens
 * anyway. Callers pass details without secrets.
 */
final class AuditTrail {
  private static final Logger LOG = System.getLogger(AuditTrail.class.getName());

  private final AuditLog log;

  AuditTrail(AuditLog log) {
    this.log = Objects.requireNonNull(log, "log");
  }

  /**
   * Appends the event.
   *
   * @throws AuditUnavailableException if it could not be made durable; the caller must not act
   */
  void record(
      String actor,
      String source,
      String action,
      String target,
      AuditOutcome outcome,
      Map<String, String> details) {
    log.append(
        new AuditEvent(
            Objects.requireNonNullElse(actor, "unknown"),
            Objects.requireNonNullElse(source, "unknown"),
            action,
            target,
            outcome,
            details));
  }

  /** Appends the event; if the audit log is unavailable, logs that at ERROR and returns false. */
  boolean tryRecord(
      String actor,
      String source,
      String action,
      String target,
      AuditOutcome outcome,
      Map<String, String> details) {
    try {
      record(actor, source, action, target, outcome, details);
      return true;
    } catch (AuditUnavailableException e) {
      LOG.log(
          Level.ERROR,
          "The audit log could not record {0} ({1}) for {2}: {3}. Free space or repair the audit"
              + " log; until then changes to accounts are refused.",
          action,
          outcome,
          target,
          e.getMessage());
      return false;
    }
  }
}
