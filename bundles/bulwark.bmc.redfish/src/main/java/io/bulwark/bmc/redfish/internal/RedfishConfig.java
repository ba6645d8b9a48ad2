package io.bulwark.bmc.redfish.internal;

import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

/** How long Bulwark waits for a Redfish BMC (PID {@code io.bulwark.bmc.redfish}). */
@ObjectClassDefinition(
    name = "Bulwark Redfish BMC driver",
    description = "Timeouts for BMCs reached over Redfish.")
@interface RedfishConfig {
  @AttributeDefinition(description = "Seconds to open a connection to a BMC.", min = "1")
  int connectSeconds() default 5;

  @AttributeDefinition(description = "Seconds a BMC may take to answer one request.", min = "1")
  int requestSeconds() default 15;

  @AttributeDefinition(
      description = "Seconds a graceful shutdown may take before the machine is powered off hard.",
      min = "1")
  int softOffSeconds() default 120;

  @AttributeDefinition(description = "Seconds a forced power-off may take to show.", min = "1")
  int powerSeconds() default 60;
}
