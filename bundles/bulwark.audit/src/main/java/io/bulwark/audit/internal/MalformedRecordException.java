package io.bulwark.audit.internal;

/** Thrown when a line of the audit log is not a record; the message says what is wrong, where. */
final class MalformedRecordException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  MalformedRecordException(String message) {
    super(message);
  }
}
