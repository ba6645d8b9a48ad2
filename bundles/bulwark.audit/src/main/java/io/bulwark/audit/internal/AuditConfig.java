package io.bulwark.audit.internal;

import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

/** Settings of the audit log: where it is kept and how large it may grow. */
@ObjectClassDefinition(
    name = "Bulwark audit log",
    description = "The tamper-evident audit log (hash chain with HMAC, one fsync per record).")
public @interface AuditConfig {

  @AttributeDefinition(description = "Folder of the audit log; created if missing.")
  String folder() default "data/audit";

  @AttributeDefinition(
      description =
          "Storage quota of the audit log in bytes. When it is reached, audited actions are refused"
              + " (but logins, logouts, unlocks, pulling the remediation kill switch and the audit's"
              + " own records, for which the last 2% is kept) until the log is exported and the"
              + " quota raised."
              + " Environment: BULWARK_AUDIT_MAX_BYTES.")
  long maxBytes() default 1L << 30;

  @AttributeDefinition(
      description =
          "Share of the quota, in percent, from which the audit subsystem is degraded and the"
              + " appliance raises a finding (the STIG asks for 75%).",
      min = "1",
      max = "99")
  int warnPercent() default AuditOptions.DEFAULT_WARN_PERCENT;
}
