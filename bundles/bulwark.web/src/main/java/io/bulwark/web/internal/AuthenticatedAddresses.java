package io.bulwark.web.internal;

import io.bulwark.api.system.ListenerGuard;
import java.util.function.Consumer;

/**
 * Passes the client address of every request that authenticated (a valid session or API token) on
 * to the listener's connection guard, so that the guard admits that address's new connections from
 * the share it keeps for known clients ({@link ListenerGuard#authenticated}) and a flood of
 * connections from elsewhere cannot keep it out. The guard is set once the listener is bound (route
 * tests have none); until then addresses are not passed on. Thread-safe: called on the workers that
 * authenticate requests.
 */
final class AuthenticatedAddresses implements Consumer<String> {
  private volatile ListenerGuard guard;

  /** Sets the guard of the listener the requests come through. */
  void guardedBy(ListenerGuard guard) {
    this.guard = guard;
  }

  @Override
  public void accept(String address) {
    ListenerGuard g = guard;
    if (g != null && address != null) {
      g.authenticated(address);
    }
  }
}
