package io.bulwark.health.dcgm.internal;

import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

/**
 * Configuration of the NVLink error detector (PID {@code io.bulwark.health.dcgm.nvlink-errors}).
 * Read once by {@link NvlinkErrorDetector}.
 */
@ObjectClassDefinition(
    name = "Bulwark NVLink error detector",
    description = "Reports GPUs whose NVLinks show CRC, replay or recovery errors at a high rate.")
public @interface NvlinkErrorDetectorConfig {

  @AttributeDefinition(
      name = "Window (s)",
      description = "Window the error counters' rise is measured over; 2 to 86400.")
  int windowSeconds() default 60;

  @AttributeDefinition(
      name = "Minimum span (s)",
      description = "Fewest seconds of samples needed to judge a rate; below the window.")
  int minSpanSeconds() default 20;

  @AttributeDefinition(
      name = "CRC errors per second",
      description =
          "CRC flit or data errors per second, averaged over the window, from which the link is"
              + " unhealthy.")
  double crcErrorsPerSecond() default 100;

  @AttributeDefinition(
      name = "Replay errors",
      description = "Replay errors within the window from which the link is unhealthy; 1 or more.")
  int replayErrors() default 1;

  @AttributeDefinition(
      name = "Recovery errors",
      description =
          "Recovery errors (link retrained) within the window from which the link is unhealthy; 1"
              + " or more.")
  int recoveryErrors() default 1;

  @AttributeDefinition(
      name = "Evaluation interval (s)",
      description =
          "How often the detector judges, in seconds (0: at every evaluation of the engine); its error rates are judged over a minute,"
              + " so judging it less often than the engine's cadence costs little time to detection"
              + " and saves the engine's time. 0 to 3600.")
  int evaluationIntervalSeconds() default 10;
}
