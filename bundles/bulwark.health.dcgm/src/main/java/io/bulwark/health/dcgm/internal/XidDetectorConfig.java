package io.bulwark.health.dcgm.internal;

import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

/**
 * Configuration of the XID detector (PID {@code io.bulwark.health.dcgm.xid}): how long an XID
 * holds, which codes count as hardware or application faults, and whether application faults are
 * recorded. Read once by {@link XidOptions}.
 */
@ObjectClassDefinition(
    name = "Bulwark XID detector",
    description =
        "Reports the XID errors DCGM sees, with the action NVIDIA's XID catalog calls for.")
public @interface XidDetectorConfig {

  @AttributeDefinition(
      name = "Hold (s)",
      description =
          "An XID raises a condition while it was seen within this many seconds; 1 to 3600.")
  int holdSeconds() default 30;

  @AttributeDefinition(
      name = "Additional hardware XIDs",
      description =
          "XID codes to treat as GPU faults that need a GPU reset (critical), whatever the catalog"
              + " says.")
  int[] additionalHardwareXids() default {};

  @AttributeDefinition(
      name = "Application XIDs",
      description =
          "XID codes that point at the application, not the GPU: no finding unless recorded.")
  int[] applicationXids() default {13, 31, 43, 45};

  @AttributeDefinition(
      name = "Record application XIDs",
      description =
          "Record application XIDs as informational findings (the GPU stays healthy at full"
              + " performance).")
  boolean recordApplicationXids() default false;
}
