package io.bulwark.api.audit;

import java.util.List;
import org.osgi.annotation.versioning.ProviderType;

/**
 * The tamper-evident audit log. Provided by the audit bundle; used by every bundle that changes
 * state. Thread-safe.
 */
@ProviderType
public interface AuditLog {

  /**
   * Appends the event and returns its record; the record is durable (on disk, synced) when this
   * returns.
   *
   * @throws AuditUnavailableException if the record could not be made durable; nothing was
   *     acknowledged
   */
  AuditRecord append(AuditEvent event);

  /** Returns the records that match, in sequence order. */
  List<AuditRecord> search(AuditQuery query);

  /** Checks the whole chain and reports the first break, if any. */
  AuditVerification verify();
}
