package io.bulwark.health.dcgm.internal;

import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

/**
 * Configuration of the XID detector (PID {@code io.bulwark.health.dcgm.xid}): how long an XID holds
 * and which codes count as hardware or application faults. Read once by {@link XidOptions}.
 */
@ObjectClassDefinition(
    name = "Bulwark XID detector",
    description =
        "Reports the XID errors DCGM sees, classified as hardware, application or unclassified.")
public @interface XidDetectorConfig {

  @AttributeDefinition(
      name = "Hold (s)",
      description =
          "An XID raises a condition while it was seen within this many seconds; 1 to 3600.")
  int holdSeconds() default 30;

  @AttributeDefinition(
      name = "Additional hardware XIDs",
      description =
          "XID codes to treat as hardware faults (critical) on top of 48, 63, 64, 74, 79, 92, 93, 94,"
              + " 95, 119 and 120.")
  int[] additionalHardwareXids() default {};

  @AttributeDefinition(
      name = "Application XIDs",
      description = "XID codes that point at the application, not the GPU (informational only).")
  int[] applicationXids() default {13, 31, 32, 43, 45, 68, 69};
}
