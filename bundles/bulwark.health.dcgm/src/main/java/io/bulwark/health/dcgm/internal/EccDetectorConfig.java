package io.bulwark.health.dcgm.internal;

import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

/**
 * Configuration of the double-bit ECC detector (PID {@code io.bulwark.health.dcgm.ecc-dbe}). Read
 * once by {@link EccDetector}.
 */
@ObjectClassDefinition(
    name = "Bulwark double-bit ECC detector",
    description = "Reports GPUs with uncorrectable (double-bit) ECC memory errors.")
public @interface EccDetectorConfig {

  @AttributeDefinition(
      name = "Window (s)",
      description =
          "Only samples this recent count; the aggregate counter must rise within it; 1 to 3600.")
  int windowSeconds() default 15;
}
