package io.bulwark.api.system;

import org.osgi.annotation.versioning.ProviderType;

/**
 * The caps on one listener's connections and what they have admitted and refused, from {@link
 * InboundConnections#guard}. Thread-safe.
 *
 * @since 1.1
 */
@ProviderType
public interface ListenerGuard extends AutoCloseable {

  /** Returns the connections open and refused so far. Cheap; never null. */
  ConnectionCounts counts();

  /**
   * Notes that a request from the client address {@code address} carried a valid session or API
   * token just now: for the next 15 minutes, connections from that address are admitted from the
   * share of the listener kept for known clients (with the console's), which connections from other
   * addresses cannot take. Cheap; called on any thread, once per authenticated request.
   *
   * @param address the client's address as {@link java.net.InetAddress#getHostAddress()} writes it;
   *     not null
   * @since 1.4
   */
  void authenticated(String address);

  /** Lifts the cap; connections are admitted on the port as on any other from now on. */
  @Override
  void close();
}
