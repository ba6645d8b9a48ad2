package io.bulwark.health.bmc.internal;

import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

/**
 * Configuration of the fan, power supply and critical sensor detectors (PIDs {@code
 * io.bulwark.health.bmc.fan}, {@code io.bulwark.health.bmc.psu}, {@code
 * io.bulwark.health.bmc.sensor-critical}). Read once when the detector starts.
 */
@ObjectClassDefinition(
    name = "Bulwark BMC sensor detector",
    description = "Reports what a machine's BMC sensors say is failing.")
public @interface BmcDetectorConfig {

  @AttributeDefinition(
      name = "Maximum age (s)",
      description =
          "Readings older than this are not judged (the BMC stopped answering: its error shows on"
              + " the machine); 30 to 86400.")
  int maxAgeSeconds() default 300;
}
