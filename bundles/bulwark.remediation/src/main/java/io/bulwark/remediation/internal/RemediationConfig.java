package io.bulwark.remediation.internal;

import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

/** Settings of the remediation engine ({@code io.bulwark.remediation}). */
@ObjectClassDefinition(
    name = "Bulwark remediation",
    description = "How findings become remediation runs: the mode of the first policies, timings")
@interface RemediationConfig {
  @AttributeDefinition(
      description =
          "The mode the default policies get when the appliance first starts: dry-run (shows what"
              + " would happen, touches nothing), approve-destructive, or automatic. Policies"
              + " changed later keep their own mode.")
  String initialMode() default "dry-run";

  @AttributeDefinition(
      description = "How long the default policies' re-validation waits with no finding, in s")
  int soakSeconds() default 300;

  @AttributeDefinition(description = "How many runs may call their steps at the same time")
  int workers() default 8;

  @AttributeDefinition(description = "How often held and waiting runs are looked at, in ms")
  int tickMillis() default 1000;

  @AttributeDefinition(description = "How many ended runs are kept (the oldest go first)")
  int keepRuns() default 5000;
}
