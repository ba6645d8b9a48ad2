package io.bulwark.sim.internal;

import java.lang.reflect.Proxy;
import java.util.Map;

/**
 * Builds configuration annotations for tests: each method answers its override, or its default
 * value.
 */
final class TestConfigs {
  private TestConfigs() {}

  static SimulatorConfig simulator(Map<String, Object> overrides) {
    return (SimulatorConfig)
        Proxy.newProxyInstance(
            SimulatorConfig.class.getClassLoader(),
            new Class<?>[] {SimulatorConfig.class},
            (proxy, method, args) -> {
              if (method.getName().equals("annotationType")) {
                return SimulatorConfig.class;
              }
              if (method.getDeclaringClass() == Object.class) {
                return switch (method.getName()) {
                  case "hashCode" -> System.identityHashCode(proxy);
                  case "equals" -> proxy == args[0];
                  default -> "SimulatorConfig" + overrides;
                };
              }
              return overrides.containsKey(method.getName())
                  ? overrides.get(method.getName())
                  : method.getDefaultValue();
            });
  }
}
