package io.bulwark.api.system;

import org.osgi.annotation.versioning.ProviderType;

/**
 * Admission of the TCP connections clients open to the appliance's listeners, decided as each
 * connection is accepted, before its TLS handshake and before it costs more than its file
 * descriptor: a listener may cap its open connections overall and per client address, and every
 * listener refuses new connections while the process is close to its open-file limit, so that the
 * store, the audit log and the scrapers keep the descriptors they need. A refused connection is
 * closed at once. Provided by the runtime bundle, which owns the shared Vert.x instance whose
 * listeners it guards; used by the admin plane. Thread-safe.
 *
 * @since 1.1
 */
@ProviderType
public interface InboundConnections {

  /**
   * Caps the connections accepted on the local TCP port {@code port}, replacing an earlier cap on
   * that port. Connections already open are counted from now on only if they were accepted under a
   * cap.
   *
   * @param port the port the listener is bound to (its actual port, not 0)
   * @param limits the caps; not null
   * @return the guard, whose {@link ListenerGuard#close()} lifts the cap
   * @throws IllegalArgumentException if {@code port} is not 1 to 65535
   */
  ListenerGuard guard(int port, ConnectionLimits limits);
}
