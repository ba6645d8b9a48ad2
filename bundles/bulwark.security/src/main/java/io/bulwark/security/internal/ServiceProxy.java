package io.bulwark.security.internal;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.function.Supplier;

/**
 * A stand-in for a service that is bound dynamically: calls go to the service bound now, and while
 * none is (its bundle is being updated) they throw what the owner says, e.g. the store's "refused,
 * nothing changed" exception, so that the owner's component, and the state it keeps in memory
 * (sessions), outlives the update. Thread-safe.
 */
final class ServiceProxy<T> implements InvocationHandler {
  private final Class<T> type;
  private final Supplier<? extends RuntimeException> missing;
  private volatile T bound;

  private ServiceProxy(Class<T> type, Supplier<? extends RuntimeException> missing) {
    this.type = type;
    this.missing = missing;
  }

  /** Returns a stand-in for {@code type} with nothing bound yet. */
  static <T> ServiceProxy<T> of(Class<T> type, Supplier<? extends RuntimeException> missing) {
    return new ServiceProxy<>(type, missing);
  }

  /** Returns the object callers use; it forwards to what is bound. */
  T proxy() {
    return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, this));
  }

  void bind(T service) {
    bound = service;
  }

  /** Unbinds {@code service} if it is the one bound. */
  void unbind(T service) {
    if (bound == service) {
      bound = null;
    }
  }

  /** Returns true while a service is bound. */
  boolean isBound() {
    return bound != null;
  }

  @Override
  public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
    if (method.getDeclaringClass() == Object.class) {
      return switch (method.getName()) {
        case "equals" -> proxy == args[0];
        case "hashCode" -> System.identityHashCode(proxy);
        default -> "stand-in for " + type.getSimpleName();
      };
    }
    T current = bound;
    if (current == null) {
      throw missing.get();
    }
    try {
      return method.invoke(current, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }
}
