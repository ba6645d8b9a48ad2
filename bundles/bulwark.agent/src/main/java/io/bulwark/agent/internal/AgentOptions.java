package io.bulwark.agent.internal;

import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * The validated, immutable form of {@link AgentConfig}, with the Hostname label resolved. Used by
 * {@link NvmlExporter}.
 *
 * @param hostname the Hostname label, never blank
 */
record AgentOptions(
    String bindAddress, int port, String library, String hostname, int sampleReuseMillis) {

  static final int MAX_SAMPLE_REUSE_MILLIS = 60_000;

  /**
   * @throws IllegalArgumentException naming the property whose value is out of range
   */
  AgentOptions {
    if (bindAddress == null || bindAddress.isBlank() || !bindAddress.strip().equals(bindAddress)) {
      throw new IllegalArgumentException(
          "bindAddress of io.bulwark.agent must be an address such as 127.0.0.1, was '"
              + bindAddress
              + "'");
    }
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException(
          "port of io.bulwark.agent must be 0 to 65535, was " + port);
    }
    if (library == null || library.isBlank()) {
      throw new IllegalArgumentException(
          "library of io.bulwark.agent must name the NVML library, e.g. libnvidia-ml.so.1");
    }
    if (hostname == null || hostname.isBlank() || hostname.contains("\n")) {
      throw new IllegalArgumentException(
          "hostname of io.bulwark.agent must be a host name, was '" + hostname + "'");
    }
    if (sampleReuseMillis < 0 || sampleReuseMillis > MAX_SAMPLE_REUSE_MILLIS) {
      throw new IllegalArgumentException(
          "sampleReuseMillis of io.bulwark.agent must be 0 to "
              + MAX_SAMPLE_REUSE_MILLIS
              + ", was "
              + sampleReuseMillis);
    }
  }

  /**
   * Converts the configuration once; an empty hostname becomes this machine's host name.
   *
   * @throws IllegalArgumentException naming the property whose value is out of range
   */
  static AgentOptions from(AgentConfig config) {
    String hostname = config.hostname() == null ? "" : config.hostname().strip();
    return new AgentOptions(
        config.bindAddress(),
        config.port(),
        config.library() == null ? null : config.library().strip(),
        hostname.isEmpty() ? localHostname() : hostname,
        config.sampleReuseMillis());
  }

  static String localHostname() {
    try {
      String name = InetAddress.getLocalHost().getHostName();
      if (name != null && !name.isBlank()) {
        return name;
      }
    } catch (UnknownHostException e) {
      String fromEnvironment = System.getenv("HOSTNAME");
      if (fromEnvironment != null && !fromEnvironment.isBlank()) {
        return fromEnvironment.strip();
      }
    }
    return "localhost";
  }
}
