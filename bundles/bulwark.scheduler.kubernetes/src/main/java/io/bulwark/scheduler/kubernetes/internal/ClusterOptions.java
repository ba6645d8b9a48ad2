package io.bulwark.scheduler.kubernetes.internal;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;

/**
 * The connector's settings, checked once when the component starts: where the API server is, which
 * files hold the kubeconfig, token and CA, which label names a node's pool, and how long a request
 * may take. Built from {@link KubernetesConfig} by the connector and by the tests.
 *
 * @param name the cluster's name in messages
 * @param masterUrl the API server's URL, or empty for the kubeconfig's server
 * @param kubeconfig the kubeconfig file, if any
 * @param tokenFile the bearer-token file, if any
 * @param caCertFile the CA certificate file, if any
 * @param poolLabel the label whose value is a node's pool
 * @param timeout the bound of one request to the API server
 */
record ClusterOptions(
    String name,
    String masterUrl,
    Optional<Path> kubeconfig,
    Optional<Path> tokenFile,
    Optional<Path> caCertFile,
    String poolLabel,
    Duration timeout) {

  /**
   * Checks and converts the configuration.
   *
   * @throws IllegalArgumentException if no API server is named, a named file cannot be read, the
   *     URL is not http(s), or the timeout is not positive; the message says what to set
   */
  static ClusterOptions from(KubernetesConfig config) {
    String name = blankToDefault(config.name(), "kubernetes");
    String url = config.masterUrl() == null ? "" : config.masterUrl().strip();
    Optional<Path> kubeconfig = readableFile(name, "kubeconfig", config.kubeconfig());
    Optional<Path> token = readableFile(name, "tokenFile", config.tokenFile());
    Optional<Path> ca = readableFile(name, "caCertFile", config.caCertFile());
    if (url.isEmpty() && kubeconfig.isEmpty()) {
      throw new IllegalArgumentException(
          "Kubernetes cluster "
              + name
              + ": neither masterUrl nor kubeconfig is set; set masterUrl to the API server (e.g."
              + " https://10.0.0.1:6443) or kubeconfig to a kubeconfig file");
    }
    if (!url.isEmpty()) {
      String scheme;
      try {
        scheme = Optional.ofNullable(URI.create(url).getScheme()).orElse("");
      } catch (IllegalArgumentException e) {
        scheme = "";
      }
      scheme = scheme.toLowerCase(Locale.ROOT);
      if (!scheme.equals("https") && !scheme.equals("http")) {
        throw new IllegalArgumentException(
            "Kubernetes cluster "
                + name
                + ": masterUrl '"
                + url
                + "' is not an http(s) URL; set it to the API server, e.g."
                + " https://10.0.0.1:6443");
      }
    }
    if (config.timeoutSeconds() < 1) {
      throw new IllegalArgumentException(
          "Kubernetes cluster "
              + name
              + ": timeoutSeconds is "
              + config.timeoutSeconds()
              + "; set it to 1 or more");
    }
    return new ClusterOptions(
        name,
        url,
        kubeconfig,
        token,
        ca,
        blankToDefault(config.poolLabel(), "node.kubernetes.io/pool"),
        Duration.ofSeconds(config.timeoutSeconds()));
  }

  /** Returns true if requests go in clear text (an {@code http://} server, e.g. a local proxy). */
  boolean cleartext() {
    return masterUrl.regionMatches(true, 0, "http://", 0, 7);
  }

  /** Returns the cluster as messages name it: its name and, where known, its API server. */
  String describe() {
    return masterUrl.isEmpty()
        ? "Kubernetes cluster " + name
        : "Kubernetes cluster " + name + " (" + masterUrl + ")";
  }

  private static Optional<Path> readableFile(String cluster, String attribute, String value) {
    if (value == null || value.isBlank()) {
      return Optional.empty();
    }
    Path path = Path.of(value.strip());
    if (!Files.isRegularFile(path) || !Files.isReadable(path)) {
      throw new IllegalArgumentException(
          "Kubernetes cluster "
              + cluster
              + ": "
              + attribute
              + " "
              + path
              + " is not a readable file; check the path and that the Bulwark service may read"
              + " it");
    }
    return Optional.of(path);
  }

  private static String blankToDefault(String value, String fallback) {
    return value == null || value.isBlank() ? fallback : value.strip();
  }
}
