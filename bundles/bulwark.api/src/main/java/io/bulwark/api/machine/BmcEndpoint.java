package io.bulwark.api.machine;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Where and how to reach a machine's BMC. The credentials are never here: {@code credentialRef}
 * names the entry of the sealed secret store that holds them.
 *
 * @param protocol Redfish or IPMI
 * @param address the BMC's IP address or host name
 * @param port its port (1-65535)
 * @param credentialRef the secret store entry of the user name and password
 * @param pinnedSha256 the SHA-256 fingerprint (64 lower-case hex digits) of the certificate an
 *     admin approved, or "" while none is pinned (Redfish only)
 * @param system which of the systems the BMC manages is the machine, where it manages several (a
 *     blade enclosure): the Redfish system's {@code Id} or its path ({@code
 *     /redfish/v1/Systems/3}); "" when not named (the BMC's first system). IPMI ignores it. Since
 *     1.4.
 */
public record BmcEndpoint(
    BmcProtocol protocol,
    String address,
    int port,
    String credentialRef,
    String pinnedSha256,
    String system) {
  private static final Pattern ADDRESS = Pattern.compile("[A-Za-z0-9][A-Za-z0-9.:_-]{0,252}");
  private static final Pattern FINGERPRINT = Pattern.compile("([0-9a-f]{64})?");
  private static final Pattern SYSTEM = Pattern.compile("([A-Za-z0-9/][A-Za-z0-9./_:-]{0,127})?");

  /**
   * @throws IllegalArgumentException if a value is not usable; the message names it
   */
  public BmcEndpoint {
    Objects.requireNonNull(protocol, "protocol");
    Objects.requireNonNull(credentialRef, "credentialRef");
    pinnedSha256 = pinnedSha256 == null ? "" : pinnedSha256;
    system = system == null ? "" : system.strip();
    if (address == null || !ADDRESS.matcher(address).matches()) {
      throw new IllegalArgumentException(
          "not a BMC address: '" + address + "' (an IP address or host name)");
    }
    if (port < 1 || port > 65535) {
      throw new IllegalArgumentException("a BMC port is between 1 and 65535, not " + port);
    }
    if (!FINGERPRINT.matcher(pinnedSha256).matches()) {
      throw new IllegalArgumentException(
          "a pinned certificate fingerprint is 64 lower-case hex digits (SHA-256), not '"
              + pinnedSha256
              + "'");
    }
    if (!SYSTEM.matcher(system).matches() || system.contains("..")) {
      throw new IllegalArgumentException(
          "not a BMC system: '"
              + system
              + "' (the Redfish system's Id, e.g. 3, or its path, e.g. /redfish/v1/Systems/3:"
              + " letters, digits, '.', '_', '-', ':' and '/', at most 128)");
    }
  }

  /** An endpoint that names no system (the BMC's first). */
  public BmcEndpoint(
      BmcProtocol protocol, String address, int port, String credentialRef, String pinnedSha256) {
    this(protocol, address, port, credentialRef, pinnedSha256, "");
  }

  /** Returns the endpoint with {@code sha256} pinned ("" to unpin). */
  public BmcEndpoint pinned(String sha256) {
    return new BmcEndpoint(protocol, address, port, credentialRef, sha256, system);
  }

  /** Returns the endpoint with its credentials under {@code ref} in the secret store. */
  public BmcEndpoint withCredentialRef(String ref) {
    return new BmcEndpoint(protocol, address, port, ref, pinnedSha256, system);
  }

  /**
   * Returns "redfish 10.2.0.17:443", as messages name a BMC, or "redfish 10.2.0.17:443 system 3"
   * where a system is named.
   */
  @Override
  public String toString() {
    return protocol.apiName()
        + " "
        + address
        + ":"
        + port
        + (system.isEmpty() ? "" : " system " + system);
  }
}
