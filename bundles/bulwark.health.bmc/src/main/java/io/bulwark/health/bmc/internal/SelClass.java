package io.bulwark.health.bmc.internal;

import io.bulwark.api.bmc.BmcLogEntry;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The hardware failure classes of BMC event log entries, recognised by the entry's sensor type (as
 * IPMI's sensor type codes and Redfish's {@code LogEntry.SensorType} name them) and its message. An
 * entry the BMC rates OK (a deassertion, a cleared condition) is never a failure.
 */
enum SelClass {
  /** An uncorrectable (multi-bit) memory ECC error: sensor type Memory (0Ch), offset 1. */
  MEMORY_UNCORRECTABLE(
      "uncorrectable memory ECC error",
      Pattern.compile("memory"),
      Pattern.compile("uncorrectable|multi-?bit|\\bue\\b"),
      "Drain the machine and run the memory test; replace the DIMM the entry names"),
  /** A fatal PCIe/bus error: sensor type Critical Interrupt (13h): bus fatal, SERR, PERR. */
  PCIE_FATAL(
      "fatal PCIe error",
      Pattern.compile("critical interrupt|pci|bus"),
      Pattern.compile("fatal|serr|perr|uncorrectable"),
      "Drain the machine and reseat or replace the device the entry names (GPU, NIC, riser);"
          + " check its PCIe link after the fix"),
  /** A CPU machine check or internal error: sensor type Processor (07h): IERR, MCE. */
  CPU_MACHINE_CHECK(
      "CPU machine check",
      Pattern.compile("processor|cpu"),
      Pattern.compile("machine check|\\bmce\\b|\\bierr\\b|internal error|uncorrectable"),
      "Drain the machine; repeated machine checks on the same CPU mean a hardware RMA"),
  /** A power unit or supply failure: sensor types Power Unit (09h) and Power Supply (08h). */
  POWER_FAILURE(
      "power unit failure",
      Pattern.compile("power unit|power supply"),
      Pattern.compile("fail|ac lost|input lost|power down"),
      "Check the machine's power feeds and supplies; drain it if it has no redundancy left");

  private final String words;
  private final Pattern sensorType;
  private final Pattern message;
  private final String action;

  SelClass(String words, Pattern sensorType, Pattern message, String action) {
    this.words = words;
    this.sensorType = sensorType;
    this.message = message;
    this.action = action;
  }

  /** Returns the class in words: "uncorrectable memory ECC error". */
  String words() {
    return words;
  }

  /** Returns what to do about it. */
  String action() {
    return action;
  }

  /** Returns the class of a failure entry, or empty for any other entry. */
  static Optional<SelClass> of(BmcLogEntry e) {
    if ("OK".equalsIgnoreCase(e.severity())) {
      return Optional.empty();
    }
    String type = e.sensorType().toLowerCase(Locale.ROOT);
    String text = e.message().toLowerCase(Locale.ROOT);
    for (SelClass c : values()) {
      boolean typed = !type.isEmpty() && c.sensorType.matcher(type).find();
      // Without a sensor type (some Redfish logs), the message must name both.
      boolean named = type.isEmpty() && c.sensorType.matcher(text).find();
      if ((typed || named) && c.message.matcher(text).find()) {
        return Optional.of(c);
      }
    }
    return Optional.empty();
  }
}
