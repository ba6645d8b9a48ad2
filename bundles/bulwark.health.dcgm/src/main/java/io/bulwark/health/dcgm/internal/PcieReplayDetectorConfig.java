package io.bulwark.health.dcgm.internal;

import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

/**
 * Configuration of the PCIe replay detector (PID {@code io.bulwark.health.dcgm.pcie-replay}). Read
 * once into {@link CounterWindowOptions}.
 */
@ObjectClassDefinition(
    name = "Bulwark PCIe replay detector",
    description = "Reports GPUs whose PCIe link replays packets at a high rate.")
public @interface PcieReplayDetectorConfig {

  @AttributeDefinition(
      name = "Window (s)",
      description = "Window the replay counter's rise is measured over; 2 to 86400.")
  int windowSeconds() default 120;

  @AttributeDefinition(
      name = "Minimum span (s)",
      description = "Fewest seconds of samples needed to judge a rate; below the window.")
  int minSpanSeconds() default 60;

  @AttributeDefinition(
      name = "Replays per minute",
      description =
          "Replays per minute, averaged over the window, from which the link is unhealthy.")
  double replaysPerMinute() default 8;

  @AttributeDefinition(
      name = "Evaluation interval (s)",
      description =
          "How often the detector judges, in seconds (0: at every evaluation of the engine); its replay rate is judged over two minutes,"
              + " so judging it less often than the engine's cadence costs little time to detection"
              + " and saves the engine's time. 0 to 3600.")
  int evaluationIntervalSeconds() default 10;
}
