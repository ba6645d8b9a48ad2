package io.bulwark.audit.internal;

import io.bulwark.api.audit.AuditLog;
import io.bulwark.api.audit.AuditVerification;
import io.bulwark.api.compliance.CheckResult;
import io.bulwark.api.compliance.ComplianceCheck;
import java.time.Instant;
import java.util.Map;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

/**
 * {@code audit-chain-intact}: the audit log's hash chain verifies from its first record to its last
 * (no record altered, removed, reordered or torn), as {@link AuditLog#verify()} checks it.
 */
@Component(service = ComplianceCheck.class)
public final class AuditChainCheck implements ComplianceCheck {
  static final String ID = "audit-chain-intact";
  private final AuditLog audit;

  @Activate
  public AuditChainCheck(@Reference AuditLog audit) {
    this.audit = audit;
  }

  @Override
  public String id() {
    return ID;
  }

  @Override
  public String title() {
    return "The audit log's hash chain is intact: no record was altered, removed or reordered";
  }

  @Override
  public CheckResult run(Instant now) {
    AuditVerification v;
    try {
      v = audit.verify();
    } catch (RuntimeException e) {
      return CheckResult.notReviewed(ID, "the audit log could not be verified: " + e, now);
    }
    if (v.intact()) {
      return CheckResult.met(
          ID,
          "the chain of all " + v.recordsChecked() + " records verifies",
          Map.of("recordsChecked", Long.toString(v.recordsChecked())),
          now);
    }
    return CheckResult.open(
        ID,
        "the chain breaks at record " + v.firstBadSequence() + ": " + v.problem(),
        Map.of(
            "recordsChecked",
            Long.toString(v.recordsChecked()),
            "firstBadSequence",
            Long.toString(v.firstBadSequence()),
            "problem",
            v.problem()),
        now);
  }
}
