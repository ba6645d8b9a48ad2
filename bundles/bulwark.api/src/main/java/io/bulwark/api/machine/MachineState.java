package io.bulwark.api.machine;

import java.util.Locale;
import java.util.Optional;

/**
 * The life-cycle state of a machine, spelled as MAAS spells it, plus Bulwark's own health states:
 * {@link #QUARANTINED} (isolated because of a finding) and {@link #REMEDIATING}. A transient state
 * ({@link #isTransient()}) is one an operation is under way in; it ends in the state the operation
 * leads to, or in its {@link #failedState()} when it fails or outlasts its timeout.
 */
public enum MachineState {
  NEW("New"),
  COMMISSIONING("Commissioning"),
  FAILED_COMMISSIONING("Failed commissioning"),
  READY("Ready"),
  ALLOCATED("Allocated"),
  DEPLOYING("Deploying"),
  DEPLOYED("Deployed"),
  FAILED_DEPLOYMENT("Failed deployment"),
  RELEASING("Releasing"),
  FAILED_RELEASING("Failed releasing"),
  DISK_ERASING("Disk erasing"),
  FAILED_DISK_ERASING("Failed disk erasing"),
  RESCUE_MODE("Rescue mode"),
  ENTERING_RESCUE_MODE("Entering rescue mode"),
  FAILED_ENTERING_RESCUE_MODE("Failed entering rescue mode"),
  EXITING_RESCUE_MODE("Exiting rescue mode"),
  FAILED_EXITING_RESCUE_MODE("Failed exiting rescue mode"),
  TESTING("Testing"),
  FAILED_TESTING("Failed testing"),
  BROKEN("Broken"),
  QUARANTINED("Quarantined"),
  REMEDIATING("Remediating");

  private final String label;

  MachineState(String label) {
    this.label = label;
  }

  /** Returns the state as MAAS and the UI spell it, e.g. "Failed commissioning". */
  public String label() {
    return label;
  }

  /** Returns the state's name in the API, e.g. {@code failed-commissioning}. */
  public String apiName() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  /** Returns the state an API name or label stands for, if any (case and '-'/'_'/' ' ignored). */
  public static Optional<MachineState> parse(String text) {
    if (text == null) {
      return Optional.empty();
    }
    String key = text.strip().toUpperCase(Locale.ROOT).replace('-', '_').replace(' ', '_');
    for (MachineState s : values()) {
      if (s.name().equals(key)) {
        return Optional.of(s);
      }
    }
    return Optional.empty();
  }

  /** Returns true if an operation is under way in this state. */
  public boolean isTransient() {
    return failedState() != null;
  }

  /**
   * Returns where an operation under way in this state ends when it fails or outlasts its timeout;
   * null for a state that is not transient.
   */
  public MachineState failedState() {
    return switch (this) {
      case COMMISSIONING -> FAILED_COMMISSIONING;
      case DEPLOYING -> FAILED_DEPLOYMENT;
      case RELEASING -> FAILED_RELEASING;
      case DISK_ERASING -> FAILED_DISK_ERASING;
      case ENTERING_RESCUE_MODE -> FAILED_ENTERING_RESCUE_MODE;
      case EXITING_RESCUE_MODE -> FAILED_EXITING_RESCUE_MODE;
      case TESTING -> FAILED_TESTING;
      case REMEDIATING -> BROKEN;
      default -> null;
    };
  }
}
