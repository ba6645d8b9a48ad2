package io.bulwark.api.machine;

import io.bulwark.api.bmc.BmcLogEntry;
import io.bulwark.api.bmc.BmcSensor;
import io.bulwark.api.fleet.NodeId;
import java.util.List;
import java.util.Objects;

/**
 * What a machine's BMC said at its latest poll: its sensors and the newest entries of its event
 * log. Read by the BMC health detectors.
 *
 * @param machine the machine
 * @param hostname its host name
 * @param node the GPU node telemetry knows it as, or null if not linked
 * @param atMillis when the BMC was read, epoch milliseconds
 * @param error why the poll failed, in words, or "" (a failed poll keeps no sensors or events)
 * @param sensors the sensor readings
 * @param events the newest event log entries, newest first
 * @since 1.1
 */
public record MachineReadings(
    MachineId machine,
    String hostname,
    NodeId node,
    long atMillis,
    String error,
    List<BmcSensor> sensors,
    List<BmcLogEntry> events) {
  /** Copies the lists; requires the machine and host name. */
  public MachineReadings {
    Objects.requireNonNull(machine, "machine");
    Objects.requireNonNull(hostname, "hostname");
    error = Objects.requireNonNullElse(error, "");
    sensors = List.copyOf(sensors);
    events = List.copyOf(events);
  }

  /**
   * Returns the node the machine's findings are raised on: the linked telemetry node, else a node
   * named by its host name.
   */
  public NodeId findingNode() {
    if (node != null) {
      return node;
    }
    return NodeId.isValid(hostname) ? NodeId.of(hostname) : NodeId.of(machine.value());
  }
}
