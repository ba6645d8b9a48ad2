package io.bulwark.api.machine;

import io.bulwark.api.fleet.NodeId;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * A machine to add: by hand, or one row of a site inventory import. The BMC credentials are passed
 * apart ({@link MachineService#add}) and go straight into the sealed secret store.
 *
 * @param id its id (usually the host name, lower case)
 * @param hostname its host name
 * @param macs its MAC addresses
 * @param bmc its BMC (protocol, address, port; the credential reference and fingerprint are set by
 *     the service), or null for none yet
 * @param rack the rack, or ""
 * @param zone the zone, or ""
 * @param tags the site's tags
 * @param node the GPU node it is in telemetry, or null to link it by host name when it appears
 */
public record NewMachine(
    MachineId id,
    String hostname,
    List<String> macs,
    BmcEndpoint bmc,
    String rack,
    String zone,
    Set<String> tags,
    NodeId node) {
  /** Copies the collections; requires id and hostname. */
  public NewMachine {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(hostname, "hostname");
    macs = List.copyOf(macs);
    tags = Set.copyOf(tags);
    rack = rack == null ? "" : rack;
    zone = zone == null ? "" : zone;
  }
}
