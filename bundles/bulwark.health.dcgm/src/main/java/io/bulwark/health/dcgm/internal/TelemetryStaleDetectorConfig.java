package io.bulwark.health.dcgm.internal;

import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

/**
 * Configuration of the stale telemetry detector (PID {@code
 * io.bulwark.health.dcgm.telemetry-stale}). Read once by {@link TelemetryStaleDetector}.
 */
@ObjectClassDefinition(
    name = "Bulwark stale telemetry detector",
    description = "Reports nodes whose telemetry target stopped answering.")
public @interface TelemetryStaleDetectorConfig {

  @AttributeDefinition(
      name = "Stale after (s)",
      description =
          "A node not scraped successfully for this many seconds is stale; keep it equal to the"
              + " missing-GPU detector's scrape freshness; 1 to 3600.")
  int staleAfterSeconds() default 30;
}
