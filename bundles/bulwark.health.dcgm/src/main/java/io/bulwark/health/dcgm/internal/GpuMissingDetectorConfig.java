package io.bulwark.health.dcgm.internal;

import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

/**
 * Configuration of the missing-GPU detector (PID {@code io.bulwark.health.dcgm.gpu-missing}). Read
 * once by {@link GpuMissingDetector}.
 */
@ObjectClassDefinition(
    name = "Bulwark missing-GPU detector",
    description = "Reports GPUs of the inventory that a node's telemetry no longer reports.")
public @interface GpuMissingDetectorConfig {

  @AttributeDefinition(
      name = "Scrape freshness (s)",
      description =
          "Only nodes scraped successfully within this many seconds are judged; 1 to 3600.")
  int scrapeFreshSeconds() default 30;
}
