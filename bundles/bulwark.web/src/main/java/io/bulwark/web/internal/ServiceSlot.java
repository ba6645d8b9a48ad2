package io.bulwark.web.internal;

import java.util.function.Supplier;

/**
 * A service a component uses for part of its work only, bound dynamically, so that the component
 * (and the routes it serves) stays when that service's bundle is updated: {@link #get()} returns
 * it, or throws what the caller says while it is missing (a 503 problem, an audit refusal).
 * Thread-safe.
 */
final class ServiceSlot<T> implements Supplier<T> {
  private final Supplier<? extends RuntimeException> missing;
  private volatile T service;

  ServiceSlot(Supplier<? extends RuntimeException> missing) {
    this.missing = missing;
  }

  /** Returns a slot that already holds {@code service} (tests). */
  static <T> ServiceSlot<T> of(T service, Supplier<? extends RuntimeException> missing) {
    ServiceSlot<T> slot = new ServiceSlot<>(missing);
    slot.set(service);
    return slot;
  }

  void set(T bound) {
    service = bound;
  }

  /** Clears the slot if it holds {@code unbound}. */
  void clear(T unbound) {
    if (service == unbound) {
      service = null;
    }
  }

  /** Returns the service, or null if it is missing. */
  T orNull() {
    return service;
  }

  @Override
  public T get() {
    T current = service;
    if (current == null) {
      throw missing.get();
    }
    return current;
  }
}
