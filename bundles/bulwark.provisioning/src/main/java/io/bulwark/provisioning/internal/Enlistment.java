package io.bulwark.provisioning.internal;

import io.bulwark.api.audit.AuditEvent;
import io.bulwark.api.audit.AuditLog;
import io.bulwark.api.audit.AuditOutcome;
import io.bulwark.api.machine.Machine;
import io.bulwark.api.machine.MachineId;
import io.bulwark.api.machine.MachineService;
import io.bulwark.api.machine.MachineState;
import io.bulwark.api.machine.NewMachine;
import io.bulwark.api.provisioning.BootReport;
import io.bulwark.api.store.RecordStore;
import io.bulwark.api.store.WritePriority;
import io.bulwark.api.system.AddressBudget;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.logging.Logger;
import java.util.regex.Pattern;

/**
 * Enlists the machines no machine has the MAC of, as MAAS does, within limits: anyone on the
 * provisioning network can fetch the iPXE script of a MAC they made up and report an enlistment
 * with its token, so each client address may enlist a burst of machines and then one at an
 * interval, and no machine enlists while too many that did are New, not yet accepted by an admin
 * ({@link EnlistmentLimits}). The inventory is bounded and checked ({@link Inventory}) before
 * anything is stored or audited, and it may not claim another machine's MAC. A machine enlisted is
 * audited; a refusal is answered with its reason and counted, one audit record per address and
 * minute ({@link EnlistmentRefusals}). Used by {@link Provisioning}, on the plane's worker threads.
 */
final class Enlistment {
  private static final Logger LOG = Logger.getLogger(Enlistment.class.getName());
  static final String TAG = "enlisted";
  private static final Pattern MAC = Pattern.compile("([0-9a-f]{2}:){5}[0-9a-f]{2}");

  private final MachineService machines;
  private final RecordStore store;
  private final AuditLog audit;
  private final EnlistmentLimits limits;
  private final AddressBudget budget;
  private final EnlistmentRefusals refusals;

  Enlistment(
      MachineService machines,
      RecordStore store,
      AuditLog audit,
      EnlistmentLimits limits,
      Clock clock) {
    this.machines = machines;
    this.store = store;
    this.audit = audit;
    this.limits = limits;
    this.budget = new AddressBudget(limits.burst(), limits.refillSeconds(), clock);
    this.refusals = new EnlistmentRefusals(audit, clock);
  }

  /** Returns the client's address of a report's {@code from} ("/10.0.0.5:40000"), bounded. */
  static String address(String from) {
    String a = from.replaceFirst("^/", "").replaceFirst(":[0-9]+$", "");
    return a.length() <= 64 ? a : a.substring(0, 64);
  }

  /**
   * Takes the enlistment report of a MAC no machine has: adds it as a New machine and returns the
   * line for the boot environment's log.
   *
   * @throws IllegalArgumentException if it is refused (limits, inventory, a MAC of another
   *     machine); the message says why
   */
  String take(BootReport report) {
    String address = address(report.from());
    String mac = report.mac();
    if (!MAC.matcher(mac).matches()) {
      throw refused(address, mac, "'" + EnlistmentRefusals.bounded(mac) + "' is not a MAC address");
    }
    long waiting = waiting();
    if (waiting >= limits.maxNew()) {
      throw refused(address, mac, full(waiting));
    }
    long wait = budget.take(address);
    if (wait > 0) {
      throw refused(
          address,
          mac,
          "enlistment refused: "
              + address
              + " has enlisted its "
              + limits.burst()
              + " machines, then one every "
              + limits.refillSeconds()
              + " s: try again in "
              + wait
              + " s");
    }
    if (report.json().length() > Inventory.MAX_BYTES) {
      throw refused(
          address,
          mac,
          "the report is "
              + report.json().length()
              + " characters of JSON; an inventory of at most "
              + Inventory.MAX_BYTES
              + " bytes is taken");
    }
    JsonObject inventory;
    try {
      inventory = new JsonObject(report.json());
    } catch (DecodeException | ClassCastException e) {
      throw refused(address, mac, "the report is not a JSON object");
    }
    if (inventory.getValue("failed") instanceof Boolean failed && failed) {
      String reason = EnlistmentRefusals.bounded(String.valueOf(inventory.getValue("reason")));
      refusals.refused(address, mac, "the boot environment stopped: " + reason);
      return "noted: " + reason;
    }
    try {
      Inventory.check(inventory, mac);
    } catch (IllegalArgumentException e) {
      throw refused(address, mac, e.getMessage());
    }
    List<String> macs = Inventory.macs(inventory, mac);
    Machine added;
    synchronized (this) {
      List<Machine> all = machines.machines();
      long now = all.stream().filter(Enlistment::waiting).count();
      if (now >= limits.maxNew()) {
        throw refused(address, mac, full(now));
      }
      for (String m : macs) {
        Optional<Machine> owner = all.stream().filter(x -> x.macs().contains(m)).findFirst();
        if (owner.isPresent()) {
          throw refused(
              address,
              mac,
              (m.equals(mac) ? mac : "its NIC " + m)
                  + " is machine "
                  + owner.get().id().value()
                  + "'s: it is not enlisted again (an admin adds a MAC to the machine that has"
                  + " it)");
        }
      }
      String hex = mac.replace(":", "");
      try {
        added =
            machines.add(
                new NewMachine(
                    MachineId.of("m-" + hex), "node-" + hex, macs, null, "", "", Set.of(TAG), null),
                null,
                null,
                Provisioning.BY);
      } catch (IllegalArgumentException e) {
        throw refused(address, mac, e.getMessage());
      }
    }
    keep(added, report, inventory);
    String answer = "enlisted as " + added.id().value() + " (New)";
    audit.append(
        new AuditEvent(
            "boot-environment:" + mac,
            address,
            "provisioning.report-enlist",
            added.id().value(),
            AuditOutcome.SUCCESS,
            Map.of("answer", answer)));
    LOG.info(
        () ->
            "Enlisted "
                + mac
                + " from "
                + address
                + " as machine "
                + added.id().value()
                + " (New): "
                + Inventory.summary(inventory)
                + ". Add its BMC and commission it");
    return answer;
  }

  /** Stores the machine's inventory and moves the log lines of its boot to it. */
  private void keep(Machine added, BootReport report, JsonObject inventory) {
    HardwareRecord hardware =
        new HardwareRecord(
            added.id().value(),
            report.purpose().mode(),
            inventory.encode(),
            new JsonArray().encode(),
            true,
            report.at());
    store.write(
        "keep the hardware and boot log of " + added.id().value(),
        WritePriority.ROUTINE,
        w -> {
          w.map(HardwareRecord.MAP).put(added.id().value(), hardware);
          BootLog enlisting = w.map(BootLog.MAP).get(report.mac());
          if (enlisting != null) {
            w.map(BootLog.MAP).remove(report.mac());
            w.map(BootLog.MAP)
                .put(
                    added.id().value(),
                    new BootLog(
                        added.id().value(), enlisting.boot(), enlisting.lines(), enlisting.at()));
          }
          return null;
        });
  }

  /** Returns the machines that enlisted themselves and are still New. */
  long waiting() {
    return machines.machines().stream().filter(Enlistment::waiting).count();
  }

  private static boolean waiting(Machine m) {
    return m.state() == MachineState.NEW && m.tags().contains(TAG);
  }

  private String full(long waiting) {
    return "enlistment refused: "
        + waiting
        + " machines that enlisted themselves are New, not yet accepted by an admin (at most "
        + limits.maxNew()
        + "): once an admin commissions or deletes them, this machine enlists at its next boot";
  }

  private IllegalArgumentException refused(String address, String mac, String why) {
    refusals.refused(address, mac, why);
    return new IllegalArgumentException(why);
  }

  /** Audits the refusals counted in the minutes that have ended ({@code all}: in every one). */
  void flush(boolean all) {
    refusals.flush(all);
  }
}
