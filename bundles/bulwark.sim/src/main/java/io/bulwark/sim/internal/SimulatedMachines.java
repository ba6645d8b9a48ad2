package io.bulwark.sim.internal;

import io.bulwark.api.fleet.NodeId;
import io.bulwark.api.machine.BmcEndpoint;
import io.bulwark.api.machine.BmcProtocol;
import io.bulwark.api.machine.Machine;
import io.bulwark.api.machine.MachineId;
import io.bulwark.api.machine.MachineOperation;
import io.bulwark.api.machine.MachineService;
import io.bulwark.api.machine.MachineState;
import io.bulwark.api.machine.NewMachine;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;

/**
 * Adds the simulated nodes that have a BMC as machines, as a site's admin would: each with its BMC
 * address and credentials, probed, its certificate pinned once the probe shows the fingerprint the
 * simulator knows it presents (the appliance's own), then commissioned, allocated and deployed, so
 * the demo's machines run as a deployed fleet does. Machines that exist already are left as they
 * are. Works in the background; the demo role only.
 */
@Component(service = {})
public final class SimulatedMachines {
  static final String BY = "simulator";
  private static final System.Logger LOG = System.getLogger(SimulatedMachines.class.getName());
  private static final long PROBE_WAIT_MILLIS = 60_000;
  static final long START_DELAY_MILLIS = 15_000;
  static final int BATCH = 8;

  private final Thread worker;

  @Activate
  public SimulatedMachines(
      @Reference FleetSimulator simulator, @Reference MachineService machines) {
    Optional<SimulatedBmcs> bmcs = simulator.bmcs();
    if (bmcs.isEmpty()) {
      worker = null;
      return;
    }
    List<SimulatedBmcs.Endpoint> endpoints = bmcs.get().endpoints();
    String fingerprint = simulator.bmcFingerprint();
    String password = FleetSimulator.bmcPassword(simulator.seed());
    worker =
        new Thread(
            () -> register(machines, endpoints, fingerprint, password), "bulwark-sim-machines");
    worker.setDaemon(true);
    worker.start();
  }

  @Deactivate
  void stop() {
    if (worker != null) {
      worker.interrupt();
    }
  }

  static void register(
      MachineService machines,
      List<SimulatedBmcs.Endpoint> endpoints,
      String fingerprint,
      String password) {
    try {
      // The fleet's telemetry comes first: the machines are added once its first scrapes are in,
      // a few at a time (each first read also reads the hardware inventory: dozens of requests).
      Thread.sleep(START_DELAY_MILLIS);
      List<MachineId> waiting = new ArrayList<>();
      int added = 0;
      int pinned = 0;
      for (int i = 0; i < endpoints.size(); i++) {
        if (i > 0 && i % BATCH == 0) {
          pin(machines, waiting, fingerprint);
          pinned += waiting.size();
          waiting.clear();
        }
        SimulatedBmcs.Endpoint e = endpoints.get(i);
        MachineId id = MachineId.of(e.node());
        Optional<Machine> known = machines.machine(id);
        if (known.isEmpty()) {
          char[] secret = password.toCharArray();
          try {
            machines.add(
                new NewMachine(
                    id,
                    e.node(),
                    e.macs(),
                    new BmcEndpoint(BmcProtocol.REDFISH, e.address(), e.port(), "", ""),
                    "rack-" + (char) ('a' + i / 16 % 26),
                    "hall-1",
                    Set.of("simulated"),
                    NodeId.of(e.node())),
                FleetSimulator.BMC_USER,
                secret,
                BY);
          } finally {
            java.util.Arrays.fill(secret, '\0');
          }
          added++;
          known = machines.machine(id);
        }
        Machine m = known.orElseThrow();
        if (m.bmc() != null && m.bmc().pinnedSha256().isEmpty() && m.pending().isEmpty()) {
          machines.operate(id, MachineOperation.PROBE, "the simulator added its BMC", BY);
          waiting.add(id);
        }
      }
      pin(machines, waiting, fingerprint);
      pinned += waiting.size();
      int deployed = 0;
      for (SimulatedBmcs.Endpoint e : endpoints) {
        if (deploy(machines, MachineId.of(e.node()))) {
          deployed++;
        }
      }
      LOG.log(
          Level.INFO,
          "Simulated machines: {0} added, {1} BMC certificates pinned, {2} deployed ({3} in all)",
          added,
          pinned,
          deployed,
          endpoints.size());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "Could not add the simulated machines: " + e.getMessage(), e);
    }
  }

  private static void pin(MachineService machines, List<MachineId> waiting, String fingerprint)
      throws InterruptedException {
    long deadline = System.currentTimeMillis() + PROBE_WAIT_MILLIS;
    List<MachineId> left = new ArrayList<>(waiting);
    while (!left.isEmpty() && System.currentTimeMillis() < deadline) {
      for (var it = left.iterator(); it.hasNext(); ) {
        Machine m = machines.machine(it.next()).orElse(null);
        if (m == null) {
          it.remove();
        } else if (m.pending().isEmpty() && !m.presentedSha256().isEmpty()) {
          if (m.presentedSha256().equals(fingerprint)) {
            machines.pinCertificate(m.id(), fingerprint, BY);
          } else {
            LOG.log(
                Level.WARNING,
                "Simulated machine {0}: its BMC presented {1}, not the simulator's certificate;"
                    + " left for an admin to approve",
                m.id(),
                m.presentedSha256());
          }
          it.remove();
        }
      }
      Thread.sleep(250);
    }
    // Their first reads (with the inventory) end before the next batch starts.
    java.util.Set<MachineId> reading = new java.util.HashSet<>(waiting);
    while (System.currentTimeMillis() < deadline) {
      java.util.Set<MachineId> read = new java.util.HashSet<>();
      machines.readings().forEach(r -> read.add(r.machine()));
      if (read.containsAll(reading)) {
        return;
      }
      Thread.sleep(250);
    }
  }

  /** Runs the machine through commissioning and deployment if it is New; true if it did. */
  private static boolean deploy(MachineService machines, MachineId id) {
    Machine m = machines.machine(id).orElse(null);
    if (m == null || m.state() != MachineState.NEW) {
      return false;
    }
    machines.operate(id, MachineOperation.COMMISSION, "simulated commissioning", BY);
    machines.complete(id, "simulated commissioning passed", BY);
    machines.operate(id, MachineOperation.ALLOCATE, "runs the simulated fleet's jobs", BY);
    machines.operate(id, MachineOperation.DEPLOY, "simulated deployment", BY);
    machines.complete(id, "simulated deployment done", BY);
    return true;
  }
}
