package io.bulwark.web.internal;

import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

/**
 * The configuration of the admin plane (PID {@code io.bulwark.web}): where the web UI and its JSON
 * API listen. Read once by {@link WebServer} and turned into {@link WebOptions}.
 */
@ObjectClassDefinition(
    name = "Bulwark web UI and API",
    description = "Where the operator's web UI and its JSON API listen.")
public @interface WebConfig {

  @AttributeDefinition(
      name = "Bind address",
      description =
          "Address the listener binds to: 0.0.0.0 for every interface, 127.0.0.1 for this host only.")
  String bindAddress() default "0.0.0.0";

  @AttributeDefinition(
      name = "HTTPS port",
      description = "TCP port of the listener; 0 picks a free port (the log tells which).",
      min = "0",
      max = "65535")
  int httpsPort() default 8443;

  @AttributeDefinition(
      name = "Notice and consent banner",
      description = "Shown before login; users must accept it to log in.")
  String banner() default
      "You are accessing a restricted information system. Usage may be monitored, recorded and"
          + " subject to audit. Unauthorized use is prohibited and subject to criminal and civil"
          + " penalties. Use of the system indicates consent to monitoring and recording.";

  @AttributeDefinition(
      name = "Price of a GPU-hour",
      description =
          "What one GPU-hour costs the site, to show lost capacity in money; 0 shows hours only.")
  double gpuHourPrice() default 0;

  @AttributeDefinition(
      name = "Currency",
      description = "ISO 4217 code of the GPU-hour price, e.g. USD or EUR.")
  String currency() default "USD";

  @AttributeDefinition(
      name = "Most connections",
      description =
          "Connections the listener keeps open at once, from all clients; more are closed as they"
              + " are accepted.",
      min = "1")
  int maxConnections() default ConnectionOptions.DEFAULT_MAX_CONNECTIONS;

  @AttributeDefinition(
      name = "Most connections per address",
      description =
          "Connections one client address may keep open at once; more are closed as they are"
              + " accepted, before their TLS handshake.",
      min = "1")
  int maxConnectionsPerAddress() default ConnectionOptions.DEFAULT_MAX_PER_ADDRESS;

  @AttributeDefinition(
      name = "TLS handshake timeout (s)",
      description = "A connection that has not finished its TLS handshake by then is closed.",
      min = "1")
  int tlsHandshakeTimeoutSeconds() default ConnectionOptions.DEFAULT_HANDSHAKE_SECONDS;

  @AttributeDefinition(
      name = "Request header timeout (s)",
      description = "A new connection must have sent a request's headers by then, or it is closed.",
      min = "1")
  int requestHeaderTimeoutSeconds() default ConnectionOptions.DEFAULT_HEADER_SECONDS;

  @AttributeDefinition(
      name = "Request body timeout (s)",
      description = "A request must have sent its whole body by then, or its connection is closed.",
      min = "1")
  int requestBodyTimeoutSeconds() default ConnectionOptions.DEFAULT_BODY_SECONDS;

  @AttributeDefinition(
      name = "Keep-alive timeout (s)",
      description = "A connection with no request in progress is closed after this long.",
      min = "1")
  int keepAliveTimeoutSeconds() default ConnectionOptions.DEFAULT_KEEP_ALIVE_SECONDS;

  @AttributeDefinition(
      name = "Idle timeout (s)",
      description =
          "A connection on which nothing is read or written for this long is closed (the event"
              + " stream sends a heartbeat every 15 s).",
      min = "1")
  int idleTimeoutSeconds() default ConnectionOptions.DEFAULT_IDLE_SECONDS;
}
