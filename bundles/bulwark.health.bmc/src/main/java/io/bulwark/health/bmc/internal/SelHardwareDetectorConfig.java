package io.bulwark.health.bmc.internal;

import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

/**
 * Configuration of the event log hardware failure detector (PID {@code
 * io.bulwark.health.bmc.sel-hardware}).
 */
@ObjectClassDefinition(
    name = "Bulwark BMC event log detector",
    description =
        "Reports hardware failures the BMC logged: uncorrectable memory errors, fatal PCIe errors,"
            + " machine checks, power unit failures.")
public @interface SelHardwareDetectorConfig {

  @AttributeDefinition(
      name = "Window (h)",
      description =
          "Entries logged within this many hours are reported; older ones are history. Entries"
              + " without a date (logged before the BMC's clock was set) count until the log is"
              + " cleared. 1 to 720.")
  int windowHours() default 24;

  @AttributeDefinition(
      name = "Maximum age (s)",
      description = "Event logs read longer ago than this are not judged; 30 to 86400.")
  int maxAgeSeconds() default 300;
}
