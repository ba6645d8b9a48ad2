package io.bulwark.health.dcgm.internal;

import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

/**
 * Configuration of the pending page retirement detector (PID {@code
 * io.bulwark.health.dcgm.retired-pages-pending}). Read once by {@link RetiredPagesDetector}.
 */
@ObjectClassDefinition(
    name = "Bulwark pending page retirement detector",
    description = "Reports GPUs with memory pages waiting to be retired at the next GPU reset.")
public @interface RetiredPagesDetectorConfig {

  @AttributeDefinition(
      name = "Window (s)",
      description = "Only samples this recent count; 1 to 3600.")
  int windowSeconds() default 15;

  @AttributeDefinition(
      name = "Retired pages limit",
      description =
          "Retired pages (single- plus double-bit) from which the action says to plan an RMA; 1 or"
              + " more.")
  int retiredPagesLimit() default 60;
}
