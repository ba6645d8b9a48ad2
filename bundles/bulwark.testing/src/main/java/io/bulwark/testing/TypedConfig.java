package io.bulwark.testing;

import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Test double for the configuration that Declarative Services hands to an {@code @Activate}
 * constructor: builds an instance of a component's configuration annotation from a map, keyed by
 * method name, where every property a test leaves out takes the default written in the annotation.
 * It stands in for Service Component Runtime and Configuration Admin and is used by unit tests
 * only. Values are returned as given, so a test passes them in the type the annotation method
 * declares.
 */
public final class TypedConfig {
  private TypedConfig() {}

  /**
   * Returns an instance of {@code type} with {@code overrides} in place of the annotation defaults.
   *
   * @throws UnsupportedOperationException when a method is called that has neither an override nor
   *     a default
   */
  public static <A> A of(Class<A> type, Map<String, ?> overrides) {
    Objects.requireNonNull(type, "type");
    Map<String, Object> values = Collections.unmodifiableMap(new HashMap<>(overrides));
    Object proxy =
        Proxy.newProxyInstance(
            type.getClassLoader(),
            new Class<?>[] {type},
            (self, method, args) -> answer(type, values, self, method, args));
    return type.cast(proxy);
  }

  /** Returns an instance of {@code type} that has the annotation defaults only. */
  public static <A> A defaults(Class<A> type) {
    return of(type, Map.of());
  }

  private static Object answer(
      Class<?> type, Map<String, Object> values, Object self, Method method, Object[] args) {
    String name = method.getName();
    if (method.getParameterCount() == 1 && name.equals("equals")) {
      return self == args[0];
    }
    if (method.getParameterCount() == 0) {
      switch (name) {
        case "annotationType":
          return type;
        case "hashCode":
          return System.identityHashCode(self);
        case "toString":
          return type.getSimpleName() + values;
        default:
          break;
      }
    }
    if (values.containsKey(name)) {
      return values.get(name);
    }
    Object value = method.getDefaultValue();
    if (value == null) {
      throw new UnsupportedOperationException(
          type.getSimpleName() + "." + name + " has no value and no default");
    }
    return value;
  }
}
