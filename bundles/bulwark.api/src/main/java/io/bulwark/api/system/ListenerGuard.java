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

  /** Lifts the cap; connections are admitted on the port as on any other from now on. */
  @Override
  void close();
}
