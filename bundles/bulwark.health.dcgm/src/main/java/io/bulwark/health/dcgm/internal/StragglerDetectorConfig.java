package io.bulwark.health.dcgm.internal;

import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

/**
 * Configuration of the straggler detector (PID {@code io.bulwark.health.dcgm.straggler}). Read once
 * by {@link StragglerOptions}.
 */
@ObjectClassDefinition(
    name = "Bulwark straggler detector",
    description =
        "Reports busy GPUs that run markedly slower than the busy GPUs of the same model.")
public @interface StragglerDetectorConfig {

  @AttributeDefinition(
      name = "Window (s)",
      description = "Window each GPU is judged over; 1 to 3600.")
  int windowSeconds() default 15;

  @AttributeDefinition(
      name = "Relative drop",
      description =
          "How far below the peer median a GPU must be, as a share of it; above 0, below 1.")
  double relativeDrop() default 0.15;

  @AttributeDefinition(
      name = "Robust deviations",
      description =
          "How many robust deviations (MAD × 1.4826) below the peer median a GPU must also be; 0 or"
              + " more.")
  double madMultiplier() default 5;

  @AttributeDefinition(
      name = "Sustained fraction",
      description =
          "Share of the GPU's samples in the window that must lie below the threshold; above 0, at"
              + " most 1.")
  double sustainedFraction() default 0.8;

  @AttributeDefinition(
      name = "Minimum peers",
      description = "Fewest other busy GPUs of the same model needed to judge; 2 or more.")
  int minPeers() default 8;

  @AttributeDefinition(
      name = "Minimum samples",
      description = "Fewest samples in the window to judge; 1 or more.")
  int minSamples() default 5;

  @AttributeDefinition(
      name = "Busy utilisation (%)",
      description =
          "Median GPU_UTIL from which a GPU counts as busy; idle GPUs are neither judged nor peers;"
              + " 0 to 100.")
  double busyUtilPercent() default 50;

  @AttributeDefinition(
      name = "Compare SM activity",
      description = "Also compare DCGM_FI_PROF_SM_ACTIVE with the peers when telemetry has it.")
  boolean compareSmActive() default true;
}
