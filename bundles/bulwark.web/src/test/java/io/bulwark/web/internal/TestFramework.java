package io.bulwark.web.internal;

import java.lang.annotation.Annotation;
import java.lang.reflect.Proxy;
import java.util.List;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.Version;

/**
 * Stand-ins for what the OSGi framework hands the component: a BundleContext that lists fixed
 * bundles, and the configuration annotation with chosen values.
 */
final class TestFramework {
  private TestFramework() {}

  /** A bundle as the context lists it. */
  record TestBundle(long id, String symbolicName, String version, int state) {}

  /** The component's configuration with these values. */
  record Config(String bindAddress, int httpsPort) implements WebConfig {
    @Override
    public double gpuHourPrice() {
      return 0;
    }

    @Override
    public String currency() {
      return "USD";
    }

    @Override
    public String banner() {
      return "Authorized use only.";
    }

    @Override
    public int maxConnections() {
      return ConnectionOptions.DEFAULT_MAX_CONNECTIONS;
    }

    @Override
    public int maxConnectionsPerAddress() {
      return ConnectionOptions.DEFAULT_MAX_PER_ADDRESS;
    }

    @Override
    public int tlsHandshakeTimeoutSeconds() {
      return ConnectionOptions.DEFAULT_HANDSHAKE_SECONDS;
    }

    @Override
    public int requestHeaderTimeoutSeconds() {
      return ConnectionOptions.DEFAULT_HEADER_SECONDS;
    }

    @Override
    public int requestBodyTimeoutSeconds() {
      return ConnectionOptions.DEFAULT_BODY_SECONDS;
    }

    @Override
    public int keepAliveTimeoutSeconds() {
      return ConnectionOptions.DEFAULT_KEEP_ALIVE_SECONDS;
    }

    @Override
    public int idleTimeoutSeconds() {
      return ConnectionOptions.DEFAULT_IDLE_SECONDS;
    }

    @Override
    public Class<? extends Annotation> annotationType() {
      return WebConfig.class;
    }
  }

  /**
   * Returns a BundleContext whose getBundles() lists these bundles; other methods are not
   * supported.
   */
  static BundleContext context(List<TestBundle> bundles) {
    Bundle[] array = bundles.stream().map(TestFramework::bundle).toArray(Bundle[]::new);
    return (BundleContext)
        Proxy.newProxyInstance(
            TestFramework.class.getClassLoader(),
            new Class<?>[] {BundleContext.class},
            (proxy, method, args) ->
                switch (method.getName()) {
                  case "getBundles" -> array.clone();
                  case "toString" -> "test bundle context";
                  case "hashCode" -> System.identityHashCode(proxy);
                  case "equals" -> proxy == args[0];
                  default -> throw new UnsupportedOperationException(method.getName());
                });
  }

  private static Bundle bundle(TestBundle b) {
    return (Bundle)
        Proxy.newProxyInstance(
            TestFramework.class.getClassLoader(),
            new Class<?>[] {Bundle.class},
            (proxy, method, args) ->
                switch (method.getName()) {
                  case "getBundleId" -> b.id();
                  case "getSymbolicName" -> b.symbolicName();
                  case "getVersion" -> Version.parseVersion(b.version());
                  case "getState" -> b.state();
                  case "toString" -> b.symbolicName();
                  case "hashCode" -> Long.hashCode(b.id());
                  case "equals" -> proxy == args[0];
                  default -> throw new UnsupportedOperationException(method.getName());
                });
  }
}
