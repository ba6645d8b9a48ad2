package io.bulwark.health.bmc.internal;

import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

/**
 * Configuration of the inlet temperature detector (PID {@code io.bulwark.health.bmc.inlet-temp}).
 */
@ObjectClassDefinition(
    name = "Bulwark inlet temperature detector",
    description = "Reports machines breathing air hotter than they are specified for.")
public @interface InletTemperatureDetectorConfig {

  @AttributeDefinition(
      name = "Inlet maximum (Cel)",
      description =
          "The hottest inlet air the servers are specified for (DGX H100/H200: 30 Cel; ASHRAE A1"
              + " allowable: 32 Cel); 15 to 60. A BMC's own upper critical threshold, where lower,"
              + " is used instead.")
  double inletMaxCelsius() default 30;

  @AttributeDefinition(
      name = "Maximum age (s)",
      description = "Readings older than this are not judged; 30 to 86400.")
  int maxAgeSeconds() default 300;
}
