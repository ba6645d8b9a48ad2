package io.bulwark.api.audit;

import java.util.Objects;

/**
 * The result of checking an audit log's chain: whether it is intact, how many records were checked,
 * and where it first breaks (the sequence number of the first altered, removed, reordered or torn
 * record; 0 when intact) with the problem in words.
 */
public record AuditVerification(
    boolean intact, long recordsChecked, long firstBadSequence, String problem) {
  public AuditVerification {
    problem = Objects.requireNonNullElse(problem, "");
  }

  /** Returns the verdict on an intact log of {@code records} records. */
  public static AuditVerification intact(long records) {
    return new AuditVerification(true, records, 0, "");
  }
}
