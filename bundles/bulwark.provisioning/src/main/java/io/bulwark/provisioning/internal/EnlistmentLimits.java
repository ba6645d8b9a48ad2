package io.bulwark.provisioning.internal;

/**
 * How much enlistment of unknown machines the appliance takes: each client address may enlist
 * {@code burst} machines, then one every {@code refillSeconds}; and while {@code maxNew} machines
 * that enlisted themselves are still New (no admin has commissioned or deleted them), no machine
 * enlists. Read once from {@link ProvisioningConfig}; used by {@link Enlistment}, which measures
 * the intervals on the steady clock.
 */
record EnlistmentLimits(int burst, int refillSeconds, int maxNew) {
  static final EnlistmentLimits DEFAULTS = new EnlistmentLimits(10, 6, 100);

  /** Requires a burst and a cap of at least one machine and an interval of at least a second. */
  EnlistmentLimits {
    if (burst < 1 || refillSeconds < 1 || maxNew < 1) {
      throw new IllegalArgumentException(
          "enlistment limits are at least 1 (burst "
              + burst
              + ", interval "
              + refillSeconds
              + " s, New machines "
              + maxNew
              + ")");
    }
  }

  static EnlistmentLimits of(ProvisioningConfig config) {
    return new EnlistmentLimits(
        config.enlistmentsPerAddress(),
        config.enlistmentIntervalSeconds(),
        config.maxNewEnlisted());
  }
}
