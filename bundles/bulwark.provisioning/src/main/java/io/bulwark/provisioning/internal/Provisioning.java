package io.bulwark.provisioning.internal;

import io.bulwark.api.machine.Machine;
import io.bulwark.api.machine.MachineId;
import io.bulwark.api.machine.MachineRefusedException;
import io.bulwark.api.machine.MachineService;
import io.bulwark.api.machine.MachineState;
import io.bulwark.api.machine.NewMachine;
import io.bulwark.api.provisioning.BootPlanner;
import io.bulwark.api.provisioning.BootPurpose;
import io.bulwark.api.provisioning.BootReport;
import io.bulwark.api.store.RecordStore;
import io.bulwark.api.store.WritePriority;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.logging.Logger;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

/**
 * Enlistment, commissioning and testing: what a booting machine does follows from its state (a MAC
 * no machine has is enlisted; Commissioning and Testing run the hardware tests; Deploying, Disk
 * erasing and Rescue mode boot the environment in those modes; every other state boots from the
 * local disk), and the boot environment's reports become machines, inventories and test results.
 */
@Component(service = {BootPlanner.class, Provisioning.class})
public final class Provisioning implements BootPlanner {
  private static final Logger LOG = Logger.getLogger(Provisioning.class.getName());
  static final String BY = "provisioning";

  private final MachineService machines;
  private final RecordStore store;

  @Activate
  public Provisioning(@Reference MachineService machines, @Reference RecordStore store) {
    this.machines = machines;
    this.store = store;
  }

  Optional<Machine> byMac(String mac) {
    return machines.machines().stream().filter(m -> m.macs().contains(mac)).findFirst();
  }

  @Override
  public BootPurpose purpose(String mac) {
    Optional<Machine> m = byMac(mac);
    if (m.isEmpty()) {
      return BootPurpose.ENLIST;
    }
    return switch (m.get().state()) {
      case COMMISSIONING -> BootPurpose.COMMISSION;
      case TESTING -> BootPurpose.TEST;
      case DEPLOYING -> BootPurpose.DEPLOY;
      case DISK_ERASING -> BootPurpose.ERASE;
      case ENTERING_RESCUE_MODE, RESCUE_MODE -> BootPurpose.RESCUE;
      default -> BootPurpose.LOCAL;
    };
  }

  @Override
  public String report(BootReport report) {
    JsonObject body;
    try {
      body = new JsonObject(report.json());
    } catch (DecodeException | ClassCastException e) {
      throw new IllegalArgumentException("the report is not a JSON object: " + e.getMessage());
    }
    return switch (report.purpose()) {
      case ENLIST -> enlist(report, body);
      case COMMISSION, TEST -> tested(report, body);
      default ->
          throw new IllegalArgumentException(
              "reports of " + report.purpose().mode() + " are not taken by this appliance yet");
    };
  }

  private String enlist(BootReport report, JsonObject inventory) {
    Inventory.check(inventory, report.mac());
    Optional<Machine> known = byMac(report.mac());
    if (known.isPresent()) {
      throw new IllegalArgumentException(
          report.mac()
              + " is already machine "
              + known.get().id().value()
              + ": it is not enlisted twice");
    }
    String hex = report.mac().replace(":", "");
    MachineId id = MachineId.of("m-" + hex);
    List<String> macs = Inventory.macs(inventory, report.mac());
    Machine added =
        machines.add(
            new NewMachine(id, "node-" + hex, macs, null, "", "", Set.of("enlisted"), null),
            null,
            null,
            BY);
    keep(added.id(), report, inventory, new JsonArray(), true);
    LOG.info(
        () ->
            "Enlisted "
                + report.mac()
                + " from "
                + report.from()
                + " as machine "
                + added.id().value()
                + " (New): "
                + Inventory.summary(inventory)
                + ". Add its BMC and commission it");
    return "enlisted as " + added.id().value() + " (New)";
  }

  private String tested(BootReport report, JsonObject body) {
    Machine m =
        byMac(report.mac())
            .orElseThrow(() -> new IllegalArgumentException(report.mac() + " is no machine here"));
    MachineState expected =
        report.purpose() == BootPurpose.COMMISSION
            ? MachineState.COMMISSIONING
            : MachineState.TESTING;
    if (m.state() != expected) {
      throw new IllegalArgumentException(
          m.id().value() + " is " + m.state().label() + ", not " + expected.label());
    }
    JsonObject inventory = body.getJsonObject("inventory");
    JsonArray results = body.getJsonArray("results");
    if (inventory == null || results == null) {
      throw new IllegalArgumentException(
          "a test report has an 'inventory' object and a 'results' array");
    }
    Inventory.check(inventory, report.mac());
    List<JsonObject> failed =
        results.stream()
            .map(o -> o instanceof JsonObject j ? j : new JsonObject())
            .filter(r -> r.getInteger("exitStatus", -1) != 0)
            .toList();
    boolean passed = failed.isEmpty() && !results.isEmpty();
    keep(m.id(), report, inventory, results, passed);
    String what = report.purpose() == BootPurpose.COMMISSION ? "commissioning" : "testing";
    try {
      if (passed) {
        machines.complete(
            m.id(),
            what + " passed: " + results.size() + " tests, " + Inventory.summary(inventory),
            BY);
        LOG.info(() -> m.id().value() + ": " + what + " passed (" + results.size() + " tests)");
        return what + " passed: " + m.id().value() + " is Ready";
      }
      String reason =
          results.isEmpty()
              ? what + " ran no test"
              : what
                  + " failed: "
                  + failed.stream()
                      .map(
                          r ->
                              r.getString("name", "?")
                                  + " (exit "
                                  + r.getInteger("exitStatus", -1)
                                  + ")")
                      .reduce((a, b) -> a + ", " + b)
                      .orElse("")
                  + "; "
                  + lastLine(failed.get(0).getString("output", ""));
      machines.fail(m.id(), reason, BY);
      LOG.warning(m.id().value() + ": " + reason);
      return reason;
    } catch (MachineRefusedException e) {
      throw new IllegalArgumentException(e.getMessage());
    }
  }

  private static String lastLine(String output) {
    String[] lines = output.strip().split("\n");
    return lines.length == 0 ? "" : lines[lines.length - 1];
  }

  private void keep(
      MachineId id, BootReport report, JsonObject inventory, JsonArray results, boolean passed) {
    HardwareRecord r =
        new HardwareRecord(
            id.value(),
            report.purpose().mode(),
            inventory.encode(),
            results.encode(),
            passed,
            report.at());
    store.write(
        "keep the hardware of " + id.value(),
        WritePriority.ROUTINE,
        w -> {
          w.map(HardwareRecord.MAP).put(id.value(), r);
          return null;
        });
  }

  /** Returns what the boot environment last reported of the machine, if it ever did. */
  Optional<HardwareRecord> hardware(MachineId id) {
    return Optional.ofNullable(store.read(r -> r.map(HardwareRecord.MAP).get(id.value())));
  }
}
