package io.bulwark.bmc.ipmi.internal;

import java.time.Duration;

/**
 * The IPMI driver's settings, converted once from {@link IpmiConfig}: the per-request timeout, the
 * number of resends, the power waits, and whether boot overrides ask for UEFI.
 */
record IpmiOptions(
    Duration request, int retries, Duration softOff, Duration power, boolean uefiBoot) {

  static IpmiOptions of(IpmiConfig config) {
    return new IpmiOptions(
        Duration.ofMillis(Math.max(100, config.requestMillis())),
        Math.max(0, Math.min(10, config.retries())),
        Duration.ofSeconds(Math.max(1, config.softOffSeconds())),
        Duration.ofSeconds(Math.max(1, config.powerSeconds())),
        config.uefiBoot());
  }

  /** The longest one request can take, all resends included. */
  Duration perRequest() {
    return request.multipliedBy(retries + 1L);
  }
}
