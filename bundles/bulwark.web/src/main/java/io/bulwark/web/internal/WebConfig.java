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
}
