package io.bulwark.health.internal;

import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

/**
 * Configuration of the health engine (PID {@code io.bulwark.health}): how often it evaluates the
 * detectors and how long a condition must stay away before its finding resolves. Read once by
 * {@link HealthEngineOptions}.
 */
@ObjectClassDefinition(
    name = "Bulwark health engine",
    description =
        "Evaluates the detectors, keeps findings with hysteresis and computes the capacity account.")
public @interface HealthEngineConfig {

  @AttributeDefinition(
      name = "Evaluation interval (ms)",
      description = "Time between two evaluations of all detectors; at least 100.")
  long evaluationIntervalMillis() default 2000;

  @AttributeDefinition(
      name = "Resolve after (ms)",
      description =
          "A finding resolves once its condition has been absent this long without a break; 0 or more.")
  long resolveAfterMillis() default 10000;

  @AttributeDefinition(
      name = "Start-up grace (ms)",
      description =
          "After a start, findings restored from the store do not resolve before this much time has"
              + " passed, so detectors can refill their windows first; 0 or more.")
  long startupGraceMillis() default 30000;
}
