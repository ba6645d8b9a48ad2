package io.bulwark.machines.internal;

import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

/**
 * How long each operation under way may take before the machine moves to the matching Failed state
 * (PID {@code io.bulwark.machines}). The defaults follow MAAS's: commissioning and testing run
 * hardware tests, deployment writes an image, disk erasing may overwrite whole disks.
 */
@ObjectClassDefinition(
    name = "Bulwark machines",
    description = "Timeouts of the operations under way on machines, in minutes.")
@interface MachinesConfig {
  @AttributeDefinition(description = "Commissioning (inventory and hardware tests).", min = "1")
  int commissioningMinutes() default 60;

  @AttributeDefinition(description = "Deploying an operating system to disk.", min = "1")
  int deployingMinutes() default 60;

  @AttributeDefinition(description = "Releasing a machine.", min = "1")
  int releasingMinutes() default 30;

  @AttributeDefinition(description = "Erasing the disks of a released machine.", min = "1")
  int diskErasingMinutes() default 480;

  @AttributeDefinition(description = "Entering or exiting rescue mode.", min = "1")
  int rescueMinutes() default 30;

  @AttributeDefinition(description = "Hardware testing.", min = "1")
  int testingMinutes() default 120;

  @AttributeDefinition(description = "Remediating a quarantined machine.", min = "1")
  int remediatingMinutes() default 240;

  @AttributeDefinition(
      description =
          "Seconds between two reads of every pinned BMC's power, sensors and event log (0: off).",
      min = "0")
  int sensorSeconds() default 60;

  @AttributeDefinition(
      description =
          "Threads that talk to BMCs, for all of them together (at most 2 at a time per BMC); 4 to"
              + " 1024. A poll of a BMC takes about 13 requests, so with BMCs that answer in 1-4 s"
              + " a thread reads about two BMCs a minute: raise it for large fleets (see the"
              + " benchmark page).",
      min = "4",
      max = "1024")
  int bmcThreads() default 64;
}
