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
          "Storage quota of the audit log in bytes. When it is reached, every audited action is"
              + " refused until the log is exported and archived, or the quota raised.")
  long maxBytes() default 1L << 30;
}
