package io.bulwark.sim.internal;

import java.util.Optional;

/**
 * The faults a simulated BMC can report, as the control API spells them: sensor faults last until
 * cleared; event log faults add one entry to the BMC's event log (clearing removes it again, as an
 * operator's ClearLog does).
 */
enum BmcFault {
  FAN_FAILED("fan-failed", "bmc-fan"),
  PSU_FAILED("psu-failed", "bmc-psu"),
  INLET_HOT("inlet-hot", "bmc-inlet-temp"),
  VOLTAGE_CRITICAL("voltage-critical", "bmc-sensor-critical"),
  SEL_MEMORY_UE("sel-memory-ue", "bmc-sel-hardware"),
  SEL_PCIE_FATAL("sel-pcie-fatal", "bmc-sel-hardware"),
  SEL_MACHINE_CHECK("sel-machine-check", "bmc-sel-hardware"),
  SEL_POWER_UNIT("sel-power-unit", "bmc-sel-hardware");

  private final String word;
  private final String finding;

  BmcFault(String word, String finding) {
    this.word = word;
    this.finding = finding;
  }

  /** Returns the fault as the control API spells it. */
  String word() {
    return word;
  }

  /** Returns the finding kind the BMC detectors raise for it. */
  String finding() {
    return finding;
  }

  /** Returns true if the fault is an event log entry rather than a sensor state. */
  boolean logged() {
    return word.startsWith("sel-");
  }

  /** Returns the fault spelled {@code word}, or empty. */
  static Optional<BmcFault> parse(String word) {
    for (BmcFault f : values()) {
      if (f.word.equals(word)) {
        return Optional.of(f);
      }
    }
    return Optional.empty();
  }
}
