package io.bulwark.telemetry.internal;

import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

/**
 * Configuration of telemetry (PID {@code io.bulwark.telemetry}): where the scrape targets are
 * listed, how often and how patiently they are scraped, and how many samples of each series are
 * kept. Read once, on activation, into {@link TelemetryOptions}.
 */
@ObjectClassDefinition(
    name = "Bulwark telemetry",
    description =
        "Scrapes the dcgm-exporters listed in a Prometheus file_sd file and keeps recent samples.")
public @interface TelemetryConfig {

  @AttributeDefinition(
      name = "Targets file",
      description =
          "Path of the Prometheus file_sd JSON file that lists the exporters to scrape. It may appear"
              + " after start; it is checked every second.")
  String fileSd() default "data/sim-targets.json";

  @AttributeDefinition(
      name = "Scrape interval (ms)",
      description = "How often every target is scraped, in milliseconds. Must be positive.")
  long scrapeIntervalMillis() default 1000;

  @AttributeDefinition(
      name = "Scrape timeout (ms)",
      description =
          "How long one scrape may take, in milliseconds. Must be positive and shorter than the"
              + " interval.")
  long scrapeTimeoutMillis() default 800;

  @AttributeDefinition(
      name = "Retention (samples)",
      description =
          "How many of the newest samples are kept per series (600 at one scrape a second is ten"
              + " minutes). At least 10.")
  int retentionSamples() default 600;
}
