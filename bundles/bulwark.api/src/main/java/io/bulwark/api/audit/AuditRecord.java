package io.bulwark.api.audit;

import java.time.Instant;
import java.util.Objects;

/**
 * One record of the audit log: the event with its sequence number (1 for the first record, then
 * each one more) and the UTC time it was appended.
 */
public record AuditRecord(long sequence, Instant at, AuditEvent event) {
  public AuditRecord {
    if (sequence < 1) {
      throw new IllegalArgumentException("audit sequence numbers start at 1: " + sequence);
    }
    Objects.requireNonNull(at, "at");
    Objects.requireNonNull(event, "event");
  }
}
