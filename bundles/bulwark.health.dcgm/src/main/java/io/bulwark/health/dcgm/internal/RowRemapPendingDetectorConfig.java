package io.bulwark.health.dcgm.internal;

import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

/**
 * Configuration of the pending row-remap detector (PID {@code
 * io.bulwark.health.dcgm.row-remap-pending}). Read once by {@link RowRemapPendingDetector}.
 */
@ObjectClassDefinition(
    name = "Bulwark pending row-remap detector",
    description = "Reports GPUs whose memory has a row remap waiting for the next GPU reset.")
public @interface RowRemapPendingDetectorConfig {

  @AttributeDefinition(
      name = "Window (s)",
      description = "Only samples this recent count; 1 to 3600.")
  int windowSeconds() default 15;
}
