package io.bulwark.health.dcgm.internal;

import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

/**
 * Configuration of the PCIe link detector (PID {@code io.bulwark.health.dcgm.pcie-downtrained}).
 * Read once into {@link PcieLinkOptions}.
 */
@ObjectClassDefinition(
    name = "Bulwark PCIe link detector",
    description = "Reports GPUs whose PCIe link trained below its width, or below its generation.")
public @interface PcieLinkDetectorConfig {

  @AttributeDefinition(
      name = "Window (s)",
      description = "Window the link is judged over; 1 to 3600.")
  int windowSeconds() default 30;

  @AttributeDefinition(
      name = "Sustained fraction",
      description =
          "Share of the window's samples that must show the lower link; above 0, at most 1.")
  double sustainedFraction() default 0.8;

  @AttributeDefinition(
      name = "Minimum seconds covered",
      description =
          "Fewest seconds of the window the samples must cover to judge (samples times their spacing, so the same at any scrape interval); 1 or more.")
  int minSeconds() default 5;

  @AttributeDefinition(
      name = "Busy utilisation (%)",
      description =
          "Median GPU_UTIL from which a GPU counts as busy; the generation of idle links is not"
              + " judged (they downshift to save power); 0 to 100.")
  double busyUtilPercent() default 50;

  @AttributeDefinition(
      name = "Evaluation interval (s)",
      description =
          "How often the detector judges, in seconds (0: at every evaluation of the engine); the link must stay low for most of its 30 s window,"
              + " so judging it less often than the engine's cadence costs little time to detection"
              + " and saves the engine's time. 0 to 3600.")
  int evaluationIntervalSeconds() default 5;
}
