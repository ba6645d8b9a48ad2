package io.bulwark.api.bmc;

import java.util.Objects;

/**
 * What a BMC says about the machine it manages, to link it to the fleet's node.
 *
 * @param manufacturer the system's manufacturer, or ""
 * @param model the system's model, or ""
 * @param serial the system's serial number, or ""
 * @param uuid the system's UUID, or ""
 * @param hostname the host name the BMC reports for the system, or ""
 */
public record BmcIdentity(
    String manufacturer, String model, String serial, String uuid, String hostname) {
  /** Replaces nulls with "". */
  public BmcIdentity {
    manufacturer = Objects.requireNonNullElse(manufacturer, "");
    model = Objects.requireNonNullElse(model, "");
    serial = Objects.requireNonNullElse(serial, "");
    uuid = Objects.requireNonNullElse(uuid, "");
    hostname = Objects.requireNonNullElse(hostname, "");
  }
}
