package io.bulwark.api.bmc;

import io.bulwark.api.machine.BmcEndpoint;
import io.bulwark.api.machine.BmcProtocol;

/**
 * Talks one BMC protocol. Registered as a service by its protocol bundle; thread-safe: connections
 * to different BMCs may be opened and used at once, each on its caller's thread.
 */
@org.osgi.annotation.versioning.ConsumerType
public interface BmcDriver {

  /** Returns the protocol this driver speaks. */
  BmcProtocol protocol();

  /**
   * Connects to the BMC at {@code endpoint} and logs in with {@code credentials} (the caller clears
   * them after the call). Where the protocol has certificates, the BMC's must match the endpoint's
   * pinned fingerprint; with none pinned, nothing is sent and the exception carries the fingerprint
   * for an admin to approve.
   *
   * @throws BmcException if the BMC cannot be reached, refuses the credentials, presents another
   *     certificate or does not speak the protocol; its message names the BMC and what to do
   */
  BmcConnection connect(BmcEndpoint endpoint, BmcCredentials credentials) throws BmcException;

  /**
   * Returns the SHA-256 fingerprint (64 lower-case hex digits) of the certificate the BMC presents,
   * without logging in or sending anything else, for trust on first use; "" for a protocol without
   * certificates.
   *
   * @throws BmcException if the BMC cannot be reached or the handshake fails
   */
  String presentedFingerprint(BmcEndpoint endpoint) throws BmcException;
}
