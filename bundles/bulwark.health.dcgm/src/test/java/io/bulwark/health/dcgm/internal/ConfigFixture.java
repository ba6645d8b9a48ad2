package io.bulwark.health.dcgm.internal;

import java.lang.reflect.Proxy;
import java.util.Map;

/**
 * Builds an instance of a configuration annotation as Declarative Services would: every property has the default
 * written in the annotation unless the test overrides it.
 */
final class ConfigFixture {
  private ConfigFixture() {}

  static <A> A of(Class<A> type, Map<String, Object> overrides) {
    Object proxy = Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, (p, method, args) -> {
      if (method.getName().equals("annotationType")) {
        return type;
      }
      if (overrides.containsKey(method.getName())) {
        return overrides.get(method.getName());
      }
      Object value = method.getDefaultValue();
      if (value == null) {
        throw new UnsupportedOperationException(method.getName());
      }
      return value;
    });
    return type.cast(proxy);
  }
}
