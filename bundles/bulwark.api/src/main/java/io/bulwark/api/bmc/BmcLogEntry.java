package io.bulwark.api.bmc;

import java.time.Instant;
import java.util.Objects;

/**
 * One entry of the BMC's event log (the SEL).
 *
 * @param id the entry's id in the log
 * @param created when the BMC recorded it, or null if it does not say
 * @param severity OK, Warning or Critical, as the BMC rates it
 * @param message the entry's text
 * @param sensorType the sensor type the entry is about (SEL entries), or ""
 */
public record BmcLogEntry(
    String id, Instant created, String severity, String message, String sensorType) {
  /** Requires the id and message. */
  public BmcLogEntry {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(message, "message");
    severity = Objects.requireNonNullElse(severity, "");
    sensorType = Objects.requireNonNullElse(sensorType, "");
  }
}
