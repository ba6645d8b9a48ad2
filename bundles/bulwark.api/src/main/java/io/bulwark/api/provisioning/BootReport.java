package io.bulwark.api.provisioning;

import java.time.Instant;
import java.util.Objects;

/**
 * What a machine's boot environment sent back: for which purpose, from which MAC (the one its boot
 * token was issued to), the report's JSON as sent, the address it came from and when.
 *
 * @since 1.0
 */
public record BootReport(String mac, BootPurpose purpose, String json, String from, Instant at) {
  /** Requires every field. */
  public BootReport {
    Objects.requireNonNull(mac, "mac");
    Objects.requireNonNull(purpose, "purpose");
    Objects.requireNonNull(json, "json");
    Objects.requireNonNull(from, "from");
    Objects.requireNonNull(at, "at");
  }
}
