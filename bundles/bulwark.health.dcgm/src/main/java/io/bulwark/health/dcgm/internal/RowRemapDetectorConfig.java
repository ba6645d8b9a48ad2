package io.bulwark.health.dcgm.internal;

import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

/**
 * Configuration of the row-remap failure detector (PID {@code
 * io.bulwark.health.dcgm.row-remap-failure}). Read once by {@link RowRemapDetector}.
 */
@ObjectClassDefinition(
    name = "Bulwark row-remap failure detector",
    description = "Reports GPUs whose memory could not remap a failing row.")
public @interface RowRemapDetectorConfig {

  @AttributeDefinition(
      name = "Window (s)",
      description = "Only samples this recent count; 1 to 3600.")
  int windowSeconds() default 15;
}
