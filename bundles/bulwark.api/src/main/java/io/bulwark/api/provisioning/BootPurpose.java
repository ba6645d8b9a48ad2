package io.bulwark.api.provisioning;

import java.util.Locale;
import java.util.Optional;

/**
 * What a machine's next network boot is for: the boot environment runs in the mode of that name
 * ({@code bulwark.mode=enlist}, ...), or the machine boots from its local disk.
 *
 * @since 1.0
 */
public enum BootPurpose {
  /** An unknown machine reports its hardware and becomes New. */
  ENLIST,
  /** Inventory and hardware tests (New → Commissioning → Ready). */
  COMMISSION,
  /** Hardware tests again (Ready → Testing → Ready). */
  TEST,
  /** An image is written to the local disk (Deploying → Deployed). */
  DEPLOY,
  /** The disks are erased on release (Disk erasing → Ready). */
  ERASE,
  /** The boot environment with a console for an admin. */
  RESCUE,
  /** No network boot: the machine boots from its local disk. */
  LOCAL;

  /** Returns the mode as the boot environment and URLs spell it, e.g. {@code commission}. */
  public String mode() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** Returns the purpose a mode names, if any. */
  public static Optional<BootPurpose> ofMode(String mode) {
    for (BootPurpose p : values()) {
      if (p.mode().equals(mode)) {
        return Optional.of(p);
      }
    }
    return Optional.empty();
  }
}
