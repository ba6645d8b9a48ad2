package io.bulwark.health.bmc.internal;

import io.bulwark.api.bmc.BmcInventory;
import io.bulwark.api.bmc.BmcLogEntry;
import io.bulwark.api.bmc.BmcSensor;
import io.bulwark.api.bmc.BootDevice;
import io.bulwark.api.fleet.NodeId;
import io.bulwark.api.health.DetectionContext;
import io.bulwark.api.machine.Machine;
import io.bulwark.api.machine.MachineEvent;
import io.bulwark.api.machine.MachineId;
import io.bulwark.api.machine.MachineOperation;
import io.bulwark.api.machine.MachineReadings;
import io.bulwark.api.machine.MachineService;
import io.bulwark.api.machine.NewMachine;
import io.bulwark.api.telemetry.TelemetryQuery;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The BMC readings the detectors read, as the machines bundle hands them out; everything else of
 * the service is not used by the detectors and fails if called.
 */
final class PolledMachines implements MachineService {
  static final long NOW = 1_800_000_000_000L;
  final List<MachineReadings> readings = new ArrayList<>();

  PolledMachines add(String machine, String node, long atMillis, List<BmcSensor> sensors) {
    return add(machine, node, atMillis, "", sensors, List.of());
  }

  PolledMachines add(
      String machine,
      String node,
      long atMillis,
      String error,
      List<BmcSensor> sensors,
      List<BmcLogEntry> events) {
    readings.add(
        new MachineReadings(
            MachineId.of(machine),
            machine + ".site",
            node == null ? null : NodeId.of(node),
            atMillis,
            error,
            sensors,
            events));
    return this;
  }

  static BmcSensor sensor(
      String name, BmcSensor.Kind kind, double value, String unit, String health) {
    return new BmcSensor(name, kind, value, unit, health, Double.NaN, Double.NaN);
  }

  static BmcSensor sensor(
      String name,
      BmcSensor.Kind kind,
      double value,
      String unit,
      String health,
      double lower,
      double upper) {
    return new BmcSensor(name, kind, value, unit, health, lower, upper);
  }

  static DetectionContext at(long nowMillis) {
    return new DetectionContext() {
      @Override
      public TelemetryQuery telemetry() {
        throw new UnsupportedOperationException("the BMC detectors read no telemetry");
      }

      @Override
      public List<io.bulwark.api.fleet.Node> inventory() {
        return List.of();
      }

      @Override
      public long nowMillis() {
        return nowMillis;
      }
    };
  }

  @Override
  public List<MachineReadings> readings() {
    return List.copyOf(readings);
  }

  @Override
  public List<Machine> machines() {
    throw new UnsupportedOperationException();
  }

  @Override
  public Optional<Machine> machine(MachineId id) {
    throw new UnsupportedOperationException();
  }

  @Override
  public List<MachineEvent> history(MachineId id, int limit) {
    throw new UnsupportedOperationException();
  }

  @Override
  public Set<MachineOperation> allowed(MachineId id) {
    throw new UnsupportedOperationException();
  }

  @Override
  public Optional<String> refusal(MachineId id, MachineOperation operation) {
    throw new UnsupportedOperationException();
  }

  @Override
  public Machine add(NewMachine machine, String username, char[] password, String by) {
    throw new UnsupportedOperationException();
  }

  @Override
  public Machine operate(MachineId id, MachineOperation operation, String reason, String by) {
    throw new UnsupportedOperationException();
  }

  @Override
  public Machine setNextBoot(
      MachineId id, BootDevice device, boolean once, String reason, String by) {
    throw new UnsupportedOperationException();
  }

  @Override
  public Machine setBmc(
      MachineId id,
      io.bulwark.api.machine.BmcEndpoint bmc,
      String username,
      char[] password,
      String by) {
    throw new UnsupportedOperationException();
  }

  @Override
  public Machine pinCertificate(MachineId id, String sha256, String by) {
    throw new UnsupportedOperationException();
  }

  @Override
  public Machine complete(MachineId id, String reason, String by) {
    throw new UnsupportedOperationException();
  }

  @Override
  public Machine fail(MachineId id, String reason, String by) {
    throw new UnsupportedOperationException();
  }

  @Override
  public Optional<BmcInventory> inventory(MachineId id) {
    throw new UnsupportedOperationException();
  }
}
