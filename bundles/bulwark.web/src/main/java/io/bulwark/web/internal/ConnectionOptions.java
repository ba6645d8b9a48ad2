package io.bulwark.web.internal;

/**
 * The validated limits of the admin plane's connections (from {@link WebConfig}): how many may be
 * open, overall and per client address, and how long a client may take over each part of a request
 * before its connection is closed. Nothing a client does can keep a connection, or a file
 * descriptor, for longer than these allow.
 *
 * @param maxConnections connections open at once, overall
 * @param maxPerAddress connections open at once from one address
 * @param handshakeSeconds to finish the TLS handshake
 * @param headerSeconds from the connection (or the previous response) to a request's full headers
 * @param bodySeconds from a request's headers to its full body
 * @param keepAliveSeconds with no request in progress
 * @param idleSeconds with nothing read or written
 */
record ConnectionOptions(
    int maxConnections,
    int maxPerAddress,
    int handshakeSeconds,
    int headerSeconds,
    int bodySeconds,
    int keepAliveSeconds,
    int idleSeconds) {
  static final int DEFAULT_MAX_CONNECTIONS = 1024;
  static final int DEFAULT_MAX_PER_ADDRESS = 64;
  static final int DEFAULT_HANDSHAKE_SECONDS = 10;
  static final int DEFAULT_HEADER_SECONDS = 10;
  static final int DEFAULT_BODY_SECONDS = 30;
  static final int DEFAULT_KEEP_ALIVE_SECONDS = 15;
  static final int DEFAULT_IDLE_SECONDS = 120;

  /** The shipped limits. */
  static final ConnectionOptions STANDARD =
      new ConnectionOptions(
          DEFAULT_MAX_CONNECTIONS,
          DEFAULT_MAX_PER_ADDRESS,
          DEFAULT_HANDSHAKE_SECONDS,
          DEFAULT_HEADER_SECONDS,
          DEFAULT_BODY_SECONDS,
          DEFAULT_KEEP_ALIVE_SECONDS,
          DEFAULT_IDLE_SECONDS);

  ConnectionOptions {
    atLeastOne("maxConnections", maxConnections);
    atLeastOne("maxConnectionsPerAddress", maxPerAddress);
    if (maxPerAddress > maxConnections) {
      throw new IllegalArgumentException(
          "maxConnectionsPerAddress ("
              + maxPerAddress
              + ") must not exceed maxConnections ("
              + maxConnections
              + ")");
    }
    atLeastOne("tlsHandshakeTimeoutSeconds", handshakeSeconds);
    atLeastOne("requestHeaderTimeoutSeconds", headerSeconds);
    atLeastOne("requestBodyTimeoutSeconds", bodySeconds);
    atLeastOne("keepAliveTimeoutSeconds", keepAliveSeconds);
    atLeastOne("idleTimeoutSeconds", idleSeconds);
  }

  /**
   * Validates the configuration.
   *
   * @throws IllegalArgumentException naming the property that is wrong
   */
  static ConnectionOptions from(WebConfig config) {
    return new ConnectionOptions(
        config.maxConnections(),
        config.maxConnectionsPerAddress(),
        config.tlsHandshakeTimeoutSeconds(),
        config.requestHeaderTimeoutSeconds(),
        config.requestBodyTimeoutSeconds(),
        config.keepAliveTimeoutSeconds(),
        config.idleTimeoutSeconds());
  }

  private static void atLeastOne(String property, int value) {
    if (value < 1) {
      throw new IllegalArgumentException(
          property + " must be at least 1 (PID " + WebServer.PID + "), not " + value);
    }
  }
}
