package io.bulwark.health.dcgm.internal;

import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

/**
 * Configuration of the power throttle detector (PID {@code io.bulwark.health.dcgm.power-throttle}).
 * Read once into {@link ThrottleOptions}.
 */
@ObjectClassDefinition(
    name = "Bulwark power throttle detector",
    description = "Reports busy GPUs held back by a power cap or power brake in a sustained way.")
public @interface PowerThrottleDetectorConfig {

  @AttributeDefinition(
      name = "Window (s)",
      description = "Window the clock-event bits are judged over; 1 to 3600.")
  int windowSeconds() default 10;

  @AttributeDefinition(
      name = "Sustained fraction",
      description =
          "Share of the window's samples that must carry a power bit; above 0, at most 1.")
  double sustainedFraction() default 0.8;

  @AttributeDefinition(
      name = "Minimum seconds covered",
      description =
          "Fewest seconds of the window the samples must cover to judge (samples times their spacing, so the same at any scrape interval); 1 or more.")
  int minSeconds() default 5;

  @AttributeDefinition(
      name = "Busy utilisation (%)",
      description =
          "Median GPU_UTIL from which a GPU counts as busy; idle GPUs are not judged; 0 to 100.")
  double busyUtilPercent() default 50;

  @AttributeDefinition(
      name = "Reference window (s)",
      description =
          "How far back the GPU's own peak SM clock is looked for; windowSeconds to 86400.")
  int referenceWindowSeconds() default 300;
}
