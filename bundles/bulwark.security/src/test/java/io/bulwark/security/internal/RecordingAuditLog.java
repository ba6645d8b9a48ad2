package io.bulwark.security.internal;

import io.bulwark.api.audit.AuditEvent;
import io.bulwark.api.audit.AuditLog;
import io.bulwark.api.audit.AuditQuery;
import io.bulwark.api.audit.AuditRecord;
import io.bulwark.api.audit.AuditUnavailableException;
import io.bulwark.api.audit.AuditVerification;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

/**
 * TEST DOUBLE for the audit bundle's {@link AuditLog}: keeps records in memory, unchained, and can
 * be switched to refuse every append as a full or broken audit log does. Used by the account tests
 * only. Thread-safe.
 */
class RecordingAuditLog implements AuditLog {
  private final Clock clock;
  private final List<AuditRecord> records = new ArrayList<>();
  private boolean unavailable;

  RecordingAuditLog(Clock clock) {
    this.clock = clock;
  }

  /** Makes every later append fail with {@link AuditUnavailableException}, or succeed again. */
  synchronized void unavailable(boolean unavailable) {
    this.unavailable = unavailable;
  }

  /** Returns the events appended so far, in order. */
  synchronized List<AuditEvent> events() {
    return records.stream().map(AuditRecord::event).toList();
  }

  /** Returns the events with this action, in order. */
  synchronized List<AuditEvent> events(String action) {
    return events().stream().filter(e -> e.action().equals(action)).toList();
  }

  @Override
  public synchronized AuditRecord append(AuditEvent event) {
    if (unavailable) {
      throw new AuditUnavailableException("test: the audit disk is full", null);
    }
    AuditRecord record = new AuditRecord(records.size() + 1, clock.instant(), event);
    records.add(record);
    return record;
  }

  @Override
  public synchronized List<AuditRecord> search(AuditQuery query) {
    return records.stream()
        .filter(query::matches)
        .filter(r -> r.sequence() > query.afterSequence())
        .limit(query.limit())
        .toList();
  }

  @Override
  public synchronized AuditVerification verify() {
    return AuditVerification.intact(records.size());
  }
}
