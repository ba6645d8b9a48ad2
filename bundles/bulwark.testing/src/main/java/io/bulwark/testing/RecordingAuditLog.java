package io.bulwark.testing;

import io.bulwark.api.audit.AuditEvent;
import io.bulwark.api.audit.AuditLog;
import io.bulwark.api.audit.AuditQuery;
import io.bulwark.api.audit.AuditRecord;
import io.bulwark.api.audit.AuditVerification;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * A test double of the audit log (the real one, hash-chained on disk, is tested in bulwark.audit):
 * keeps records in memory so a bundle's tests can check what was audited.
 */
public final class RecordingAuditLog implements AuditLog {
  /** What was appended, in order. */
  public final List<AuditRecord> records = new ArrayList<>();

  @Override
  public synchronized AuditRecord append(AuditEvent event) {
    AuditRecord r = new AuditRecord(records.size() + 1, Instant.now(), event);
    records.add(r);
    return r;
  }

  @Override
  public synchronized List<AuditRecord> search(AuditQuery query) {
    return records.stream()
        .filter(r -> r.sequence() > query.afterSequence() && query.matches(r))
        .limit(query.limit())
        .toList();
  }

  @Override
  public AuditVerification verify() {
    return AuditVerification.intact(records.size());
  }
}
