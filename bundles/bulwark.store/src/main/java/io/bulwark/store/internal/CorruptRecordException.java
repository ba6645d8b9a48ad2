package io.bulwark.store.internal;

/** Thrown when a stored record cannot be decoded; the message names the record. */
final class CorruptRecordException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  CorruptRecordException(String message, Throwable cause) {
    super(message, cause);
  }
}
