package io.bulwark.sim.internal;

import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

/**
 * Configuration of the fleet simulator (PID {@code io.bulwark.sim}): where it listens, how large
 * the simulated fleet is, which scenario it plays and where it writes the Prometheus {@code
 * file_sd} targets. Read once by {@link SimulatorOptions}. The simulator belongs to the demo role
 * and to end-to-end tests only.
 */
@ObjectClassDefinition(
    name = "Bulwark fleet simulator",
    description =
        "Serves dcgm-exporter pages for a simulated GPU fleet, with faults injected by a scenario or"
            + " through the control API.")
public @interface SimulatorConfig {

  @AttributeDefinition(name = "Enabled", description = "Whether the simulator runs at all.")
  boolean enabled() default true;

  @AttributeDefinition(
      name = "Bind address",
      description =
          "Address the simulator listens on, e.g. 127.0.0.1 (loopback only) or 0.0.0.0 (all).")
  String bindAddress() default "127.0.0.1";

  @AttributeDefinition(name = "Port", description = "TCP port, 0 to 65535; 0 picks a free port.")
  int port() default 9400;

  @AttributeDefinition(
      name = "file_sd path",
      description = "File the simulator writes its Prometheus file_sd targets to, once it listens.")
  String fileSd() default "data/sim-targets.json";

  @AttributeDefinition(name = "Nodes", description = "Number of simulated nodes, 1 to 4096.")
  int nodes() default 64;

  @AttributeDefinition(
      name = "GPUs per node",
      description = "GPUs in each simulated node, 1 to 16.")
  int gpusPerNode() default 8;

  @AttributeDefinition(
      name = "Node name prefix",
      description =
          "Node names are this prefix followed by a zero-padded number, e.g. gpu-node-007.")
  String nodePrefix() default "gpu-node-";

  @AttributeDefinition(
      name = "Scenario",
      description =
          "demo: nine persistent faults of different kinds plus one that comes and goes;"
              + " none: a healthy fleet until faults are added through the control API.")
  String scenario() default "demo";

  @AttributeDefinition(
      name = "Fields",
      description =
          "counters: each node serves the fields of Bulwark's counters file for dcgm-exporter"
              + " (what Bulwark reads); all: every field the simulator models, as an exporter with"
              + " a wider counters file would.")
  String fields() default "counters";

  @AttributeDefinition(
      name = "Seed",
      description =
          "Seed of the simulated noise and fault placement; the same seed gives the same fleet.")
  long seed() default 42;

  @AttributeDefinition(
      name = "BMCs",
      description =
          "How many nodes (the first ones) have a simulated Redfish BMC, 0 to 4096: each listens"
              + " on an address of its own in 127.0.0.0/8 (127.0.2.1 for the first node) on the"
              + " simulator's port, over HTTPS with the appliance's certificate, and is added as a"
              + " machine. Needs a loopback bind address.")
  int bmcs() default 64;
}
