package io.bulwark.health.dcgm.internal;

import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

/**
 * Configuration of the thermal margin detector (PID {@code io.bulwark.health.dcgm.thermal-margin}).
 * Read once into {@link ThermalMarginOptions}.
 */
@ObjectClassDefinition(
    name = "Bulwark thermal margin detector",
    description =
        "Reports GPUs running close to their slowdown temperature, or much hotter than their peers.")
public @interface ThermalMarginDetectorConfig {

  @AttributeDefinition(
      name = "Window (s)",
      description = "Window the temperature is judged over; 1 to 3600.")
  int windowSeconds() default 60;

  @AttributeDefinition(
      name = "Minimum margin (°C)",
      description =
          "Slowdown temperature minus GPU temperature below which the margin is too thin.")
  double minMarginCelsius() default 5;

  @AttributeDefinition(
      name = "Peer gap (°C)",
      description =
          "How much hotter than the median of its busy same-model peers on the node a busy GPU may"
              + " run.")
  double peerGapCelsius() default 10;

  @AttributeDefinition(
      name = "Minimum peers",
      description = "Fewest other busy same-model GPUs on the node for the peer check; 1 or more.")
  int minPeers() default 2;

  @AttributeDefinition(
      name = "Sustained fraction",
      description = "Share of samples that must be below the margin; above 0, at most 1.")
  double sustainedFraction() default 0.8;

  @AttributeDefinition(
      name = "Minimum seconds covered",
      description =
          "Fewest seconds of the window the temperature samples must cover to judge (samples times their spacing, so the same at any scrape interval); 1 or more.")
  int minSeconds() default 10;

  @AttributeDefinition(
      name = "Busy utilisation (%)",
      description = "Median GPU_UTIL from which a GPU counts as busy for the peer check; 0 to 100.")
  double busyUtilPercent() default 50;

  @AttributeDefinition(
      name = "Evaluation interval (s)",
      description =
          "How often the detector judges, in seconds (0: at every evaluation of the engine); the margin must stay thin for most of its minute,"
              + " so judging it less often than the engine's cadence costs little time to detection"
              + " and saves the engine's time. 0 to 3600.")
  int evaluationIntervalSeconds() default 10;
}
