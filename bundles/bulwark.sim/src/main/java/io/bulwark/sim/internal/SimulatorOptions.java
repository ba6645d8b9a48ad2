package io.bulwark.sim.internal;

import io.bulwark.api.fleet.NodeId;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Objects;

/**
 * The validated, immutable form of {@link SimulatorConfig}. Used by the fleet simulator.
 *
 * @param fileSd where the Prometheus file_sd targets are written
 * @param bmcs how many of the nodes (the first ones) have a simulated BMC
 * @param fields which fields each node's page holds
 */
record SimulatorOptions(
    boolean enabled,
    String bindAddress,
    int port,
    Path fileSd,
    int nodes,
    int gpusPerNode,
    String nodePrefix,
    Scenario scenario,
    long seed,
    int bmcs,
    FieldSet fields) {

  static final int MAX_NODES = 4096;
  static final int MAX_GPUS_PER_NODE = 16;

  /**
   * @throws IllegalArgumentException naming the property whose value is out of range
   */
  SimulatorOptions {
    Objects.requireNonNull(fileSd, "fileSd");
    Objects.requireNonNull(scenario, "scenario");
    Objects.requireNonNull(fields, "fields");
    if (bindAddress == null || bindAddress.isBlank() || !bindAddress.strip().equals(bindAddress)) {
      throw new IllegalArgumentException(
          "bindAddress must be an address such as 127.0.0.1, was '" + bindAddress + "'");
    }
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException("port must be 0 to 65535, was " + port);
    }
    if (nodes < 1 || nodes > MAX_NODES) {
      throw new IllegalArgumentException("nodes must be 1 to " + MAX_NODES + ", was " + nodes);
    }
    if (gpusPerNode < 1 || gpusPerNode > MAX_GPUS_PER_NODE) {
      throw new IllegalArgumentException(
          "gpusPerNode must be 1 to " + MAX_GPUS_PER_NODE + ", was " + gpusPerNode);
    }
    if (bmcs < 0 || bmcs > MAX_NODES) {
      throw new IllegalArgumentException("bmcs must be 0 to " + MAX_NODES + ", was " + bmcs);
    }
    if (nodePrefix == null || nodePrefix.length() > 200 || !NodeId.isValid(nodePrefix + "0")) {
      throw new IllegalArgumentException(
          "nodePrefix must start with a letter or digit and hold only letters,"
              + " digits, '.', '_', ':' and '-', was '"
              + nodePrefix
              + "'");
    }
  }

  /**
   * Converts the configuration once.
   *
   * @throws IllegalArgumentException naming the property whose value is out of range
   */
  static SimulatorOptions from(SimulatorConfig config) {
    return new SimulatorOptions(
        config.enabled(),
        config.bindAddress(),
        config.port(),
        path(config.fileSd()),
        config.nodes(),
        config.gpusPerNode(),
        config.nodePrefix(),
        Scenario.parse(config.scenario()),
        config.seed(),
        config.bmcs(),
        FieldSet.parse(config.fields()));
  }

  private static Path path(String value) {
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException("fileSd must name a file, was '" + value + "'");
    }
    try {
      return Path.of(value);
    } catch (InvalidPathException e) {
      throw new IllegalArgumentException(
          "fileSd is not a valid path: '" + value + "' (" + e.getReason() + ")");
    }
  }
}
