package io.bulwark.api.audit;

/** How an audited action ended: done, failed, or refused for lack of authority. */
public enum AuditOutcome {
  SUCCESS,
  FAILURE,
  DENIED
}
