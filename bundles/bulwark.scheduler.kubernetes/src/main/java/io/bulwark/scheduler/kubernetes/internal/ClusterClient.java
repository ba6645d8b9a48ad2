package io.bulwark.scheduler.kubernetes.internal;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import java.util.function.Supplier;
import javax.net.ssl.TrustManager;

/**
 * Opens the fabric8 client for one cluster from {@link ClusterOptions}: the JDK's HTTP client as
 * transport, nothing read from the environment, system properties or {@code ~/.kube} (only the
 * files configured), one request bounded by the timeout and never retried (a caller asks again
 * later), and the API server trusted by the configured CA. Used by {@link KubernetesConnector}.
 */
final class ClusterClient {
  private ClusterClient() {}

  /**
   * Returns a client; it connects on first use.
   *
   * @throws IllegalArgumentException if the kubeconfig or CA file cannot be used; the message says
   *     which and why
   */
  static KubernetesClient open(ClusterOptions options) {
    return withBundleLoader(() -> build(options));
  }

  /**
   * Runs {@code call} with this bundle's class loader as the thread's context loader: the client
   * looks up its implementation and its model types there, and a framework or event-loop thread
   * carries another loader or none.
   */
  static <T> T withBundleLoader(Supplier<T> call) {
    Thread thread = Thread.currentThread();
    ClassLoader previous = thread.getContextClassLoader();
    thread.setContextClassLoader(ClusterClient.class.getClassLoader());
    try {
      return call.get();
    } finally {
      thread.setContextClassLoader(previous);
    }
  }

  private static KubernetesClient build(ClusterOptions options) {
    String cluster = options.describe();
    Config base;
    if (options.kubeconfig().isPresent()) {
      try {
        base = Config.fromKubeconfig(options.kubeconfig().get().toFile());
      } catch (RuntimeException e) {
        throw new IllegalArgumentException(
            cluster
                + ": cannot use the kubeconfig "
                + options.kubeconfig().get()
                + " ("
                + e.getMessage()
                + "); check that it is a kubeconfig with a current context",
            e);
      }
    } else {
      base = Config.empty();
    }
    int timeoutMillis = Math.toIntExact(options.timeout().toMillis());
    ConfigBuilder config =
        new ConfigBuilder(base)
            .withConnectionTimeout(timeoutMillis)
            .withRequestTimeout(timeoutMillis)
            .withRequestRetryBackoffLimit(0)
            .withUserAgent("bulwark");
    if (!options.masterUrl().isEmpty()) {
      config.withMasterUrl(options.masterUrl());
    }
    options.tokenFile().ifPresent(file -> config.withOauthTokenProvider(new TokenFile(file)));
    KubernetesClientBuilder builder =
        new KubernetesClientBuilder()
            .withConfig(config.build())
            .withHttpClientFactory(new JdkHttpClientFactory());
    if (options.caCertFile().isPresent()) {
      TrustManager[] trust = ClusterTrust.fromPem(cluster, options.caCertFile().get());
      builder.withHttpClientBuilderConsumer(http -> http.sslContext(null, trust));
    }
    return builder.build();
  }
}
