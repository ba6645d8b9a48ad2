package io.bulwark.web.internal;

import io.bulwark.api.security.AdminTls;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.net.JdkSSLEngineOptions;
import io.vertx.core.net.KeyCertOptions;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.concurrent.TimeUnit;

/**
 * How the admin plane listens: the Vert.x server options and the scheme of the URL operators open.
 * The one place that builds server options. The appliance listens only with {@link #https}: TLS 1.3
 * and 1.2 with the FIPS-approved AES-GCM suites through the BCJSSE provider. {@link #plainHttp}
 * serves the unit tests of the routes, never the component.
 */
final class Listener {
  private final String scheme;
  private final WebOptions options;
  private final ConnectionOptions limits;

  /** Answers smaller than this go uncompressed: gzip would save nothing worth the CPU. */
  static final int COMPRESS_ABOVE_BYTES = 1024;

  private final HttpServerOptions serverOptions;

  private Listener(
      String scheme,
      WebOptions options,
      ConnectionOptions limits,
      HttpServerOptions serverOptions) {
    this.scheme = scheme;
    this.options = options;
    this.limits = limits;
    this.serverOptions = serverOptions;
  }

  /**
   * Returns the HTTPS listener: the TLS handshake is done by BCJSSE (first TLS provider), with the
   * admin identity's keys, and only the protocols and suites {@code tls} allows.
   */
  static Listener https(WebOptions options, ConnectionOptions limits, AdminTls tls) {
    HttpServerOptions server =
        withTimeouts(new HttpServerOptions(), limits)
            // h2c detection would hold a connection back from the connection handler (and from
            // the header deadline) until its first request.
            .setHttp2ClearTextEnabled(false)
            .setHost(options.bindAddress())
            .setPort(options.httpsPort())
            .setDecompressionSupported(false)
            // gzip for clients that ask, above 1 KiB; AdminRouter keeps it off for answers that
            // carry a secret (BREACH) and for the event stream.
            .setCompressionSupported(true)
            .setCompressionContentSizeThreshold(COMPRESS_ABOVE_BYTES)
            .setSsl(true)
            .setSslEngineOptions(new JdkSSLEngineOptions())
            .setKeyCertOptions(KeyCertOptions.wrap(tls.keyManagers()))
            .setEnabledSecureTransportProtocols(new LinkedHashSet<>(tls.protocols()));
    tls.cipherSuites().forEach(server::addEnabledCipherSuite);
    return new Listener("https", options, limits, server);
  }

  /** Returns a plain HTTP listener on the configured address and port (route tests only). */
  static Listener plainHttp(WebOptions options) {
    return plainHttp(options, ConnectionOptions.STANDARD);
  }

  /** Returns a plain HTTP listener with these connection limits (route tests only). */
  static Listener plainHttp(WebOptions options, ConnectionOptions limits) {
    return new Listener(
        "http",
        options,
        limits,
        withTimeouts(new HttpServerOptions(), limits)
            // h2c detection would hold a connection back from the connection handler (and from
            // the header deadline) until its first request.
            .setHttp2ClearTextEnabled(false)
            .setHost(options.bindAddress())
            .setPort(options.httpsPort())
            .setDecompressionSupported(false)
            .setCompressionSupported(true)
            .setCompressionContentSizeThreshold(COMPRESS_ABOVE_BYTES));
  }

  private static HttpServerOptions withTimeouts(
      HttpServerOptions server, ConnectionOptions limits) {
    server
        .setSslHandshakeTimeout(limits.handshakeSeconds())
        .setSslHandshakeTimeoutUnit(TimeUnit.SECONDS)
        .setIdleTimeout(limits.idleSeconds())
        .setIdleTimeoutUnit(TimeUnit.SECONDS);
    return server;
  }

  /** Returns the connection limits and timeouts. */
  ConnectionOptions limits() {
    return limits;
  }

  /** Returns a copy of the server options, so callers cannot change this listener. */
  HttpServerOptions serverOptions() {
    return new HttpServerOptions(serverOptions);
  }

  /** Returns the address bound, as configured. */
  String bindAddress() {
    return options.bindAddress();
  }

  /**
   * Returns the URL an operator opens, for the port actually bound. On a wildcard address it names
   * the first non-loopback IPv4 address of this host (no name lookup, which could hang on an
   * air-gapped network).
   */
  String url(int port) {
    String host = options.wildcard() ? firstSiteAddress() : options.bindAddress();
    if (host.indexOf(':') >= 0) {
      host = "[" + host + "]";
    }
    return scheme + "://" + host + ":" + port + "/";
  }

  private static String firstSiteAddress() {
    try {
      for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
        if (!nic.isUp() || nic.isLoopback()) {
          continue;
        }
        for (InetAddress address : Collections.list(nic.getInetAddresses())) {
          if (address instanceof Inet4Address && !address.isLinkLocalAddress()) {
            return address.getHostAddress();
          }
        }
      }
    } catch (SocketException e) {
      return "localhost";
    }
    return "localhost";
  }
}
