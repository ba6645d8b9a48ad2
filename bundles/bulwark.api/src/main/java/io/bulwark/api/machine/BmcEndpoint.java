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
 */
public record BmcEndpoint(
    BmcProtocol protocol, String address, int port, String credentialRef, String pinnedSha256) {
  private static final Pattern ADDRESS = Pattern.compile("[A-Za-z0-9][A-Za-z0-9.:_-]{0,252}");
  private static final Pattern FINGERPRINT = Pattern.compile("([0-9a-f]{64})?");

  /**
   * @throws IllegalArgumentException if a value is not usable; the message names it
   */
  public BmcEndpoint {
    Objects.requireNonNull(protocol, "protocol");
    Objects.requireNonNull(credentialRef, "credentialRef");
    pinnedSha256 = pinnedSha256 == null ? "" : pinnedSha256;
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
  }

  /** Returns the endpoint with {@code sha256} pinned ("" to unpin). */
  public BmcEndpoint pinned(String sha256) {
    return new BmcEndpoint(protocol, address, port, credentialRef, sha256);
  }

  /** Returns "redfish 10.2.0.17:443", as messages name a BMC. */
  @Override
  public String toString() {
    return protocol.apiName() + " " + address + ":" + port;
  }
}
