package io.bulwark.api.machine;

import java.util.Locale;
import java.util.Optional;

/**
 * What an operator (or remediation, later provisioning) asks of a machine. Which are allowed in
 * which state is one table, {@link MachineService#allowed}; the rest are refused with a {@link
 * MachineRefusedException} naming the state. A locked machine refuses what would disturb its work
 * ({@link #disturbsWork()}).
 */
public enum MachineOperation {
  COMMISSION,
  TEST,
  ALLOCATE,
  DEPLOY,
  RELEASE,
  ERASE_DISKS,
  RESCUE,
  EXIT_RESCUE,
  ABORT,
  MARK_BROKEN,
  MARK_FIXED,
  QUARANTINE,
  REMEDIATE,
  RETURN_TO_SERVICE,
  LOCK,
  UNLOCK,
  DELETE,
  POWER_ON,
  POWER_OFF,
  POWER_CYCLE,
  SOFT_OFF,
  SET_BOOT,
  PROBE;

  /** Returns the operation's name in the API path, e.g. {@code power-cycle}. */
  public String apiName() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  /** Returns the operation an API name stands for, if any. */
  public static Optional<MachineOperation> parse(String text) {
    if (text == null) {
      return Optional.empty();
    }
    String key = text.strip().toUpperCase(Locale.ROOT).replace('-', '_');
    for (MachineOperation o : values()) {
      if (o.name().equals(key)) {
        return Optional.of(o);
      }
    }
    return Optional.empty();
  }

  /** Returns true for the operations that talk to the BMC and leave the state as it is. */
  public boolean isPower() {
    return this == POWER_ON
        || this == POWER_OFF
        || this == POWER_CYCLE
        || this == SOFT_OFF
        || this == SET_BOOT
        || this == PROBE;
  }

  /**
   * Returns true for what takes a deployed machine's work away: powering it off or cycling it,
   * releasing it, erasing its disks, rescue mode. On a deployed machine these pass the remediation
   * guardrails first (see {@code io.bulwark.api.remediation.MachineActionGuard}).
   *
   * @since 1.3
   */
  public boolean takesOutOfService() {
    return switch (this) {
      case POWER_OFF, SOFT_OFF, POWER_CYCLE, RELEASE, ERASE_DISKS, RESCUE -> true;
      default -> false;
    };
  }

  /**
   * Returns true for what a locked machine refuses: everything that would stop, wipe, move or
   * remove it. Powering on, probing, unlocking and reading are not.
   */
  public boolean disturbsWork() {
    return switch (this) {
      case POWER_ON, PROBE, UNLOCK, LOCK -> false;
      default -> true;
    };
  }
}
