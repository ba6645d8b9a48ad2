package io.bulwark.health.dcgm.internal;

import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

/**
 * Configuration of the single-bit ECC rate detector (PID {@code
 * io.bulwark.health.dcgm.ecc-sbe-rate}). Read once into {@link CounterWindowOptions}.
 */
@ObjectClassDefinition(
    name = "Bulwark single-bit ECC rate detector",
    description = "Reports GPUs whose corrected (single-bit) ECC errors come at a high rate.")
public @interface SbeRateDetectorConfig {

  @AttributeDefinition(
      name = "Window (s)",
      description = "Window the counter's rise is measured over; 2 to 86400.")
  int windowSeconds() default 600;

  @AttributeDefinition(
      name = "Minimum span (s)",
      description = "Fewest seconds of samples needed to judge a rate; below the window.")
  int minSpanSeconds() default 120;

  @AttributeDefinition(
      name = "Errors per minute",
      description =
          "Corrected errors per minute, averaged over the window, from which the rate is too high.")
  double errorsPerMinute() default 10;

  @AttributeDefinition(
      name = "Evaluation interval (s)",
      description =
          "How often the detector judges, in seconds (0: at every evaluation of the engine); its error rate is judged over ten minutes,"
              + " so judging it less often than the engine's cadence costs little time to detection"
              + " and saves the engine's time. 0 to 3600.")
  int evaluationIntervalSeconds() default 30;
}
