package io.bulwark.bmc.ipmi.internal;

import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

/**
 * How long Bulwark waits for an IPMI BMC and how often it asks again (PID {@code
 * io.bulwark.bmc.ipmi}).
 */
@ObjectClassDefinition(
    name = "Bulwark IPMI BMC driver",
    description = "Timeouts and retries for BMCs reached over IPMI 2.0 (RMCP+, UDP).")
@interface IpmiConfig {
  @AttributeDefinition(
      description =
          "Milliseconds a BMC may take to answer one UDP request before it is sent again.",
      min = "100")
  int requestMillis() default 2000;

  @AttributeDefinition(
      description = "How many times an unanswered request is sent again (same sequence numbers).",
      min = "0",
      max = "10")
  int retries() default 3;

  @AttributeDefinition(
      description = "Seconds a graceful shutdown may take before the machine is powered off hard.",
      min = "1")
  int softOffSeconds() default 120;

  @AttributeDefinition(description = "Seconds a forced power-off may take to show.", min = "1")
  int powerSeconds() default 60;

  @AttributeDefinition(
      description =
          "Ask for a UEFI boot when setting the next boot device (boot flags bit 5); turn off for"
              + " machines that boot in legacy BIOS mode.")
  boolean uefiBoot() default true;
}
