package io.bulwark.api.audit;

/**
 * Thrown when the audit log cannot make a record durable (storage full, unwritable, or its key
 * unavailable). The caller must not carry out, or acknowledge, the action it wanted to audit:
 * Bulwark fails secure.
 */
public class AuditUnavailableException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public AuditUnavailableException(String message, Throwable cause) {
    super(message, cause);
  }
}
