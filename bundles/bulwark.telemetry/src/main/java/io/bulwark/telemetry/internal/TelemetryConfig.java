package io.bulwark.telemetry.internal;

import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

/**
 * Configuration of telemetry (PID {@code io.bulwark.telemetry}): where the scrape targets are
 * listed, how often and how patiently they are scraped, how many samples of each series are kept,
 * and how minute roll-ups are kept and archived. Read once, on activation, into {@link
 * TelemetryOptions} and {@link RollupOptions}.
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
      name = "Longest stretched interval (ms)",
      description =
          "When the appliance cannot keep up (its CPUs taken by other work, or a fleet larger than"
              + " the machine), telemetry stretches every target's scrape interval evenly, up to"
              + " this, instead of missing scrapes at random, and returns to the scrape interval by"
              + " itself. 0 is four times the scrape interval; equal to the scrape interval turns"
              + " load shedding off.",
      min = "0")
  long maxStretchedIntervalMillis() default 0;

  @AttributeDefinition(
      name = "Retention (samples)",
      description =
          "How many of the newest samples are kept per series (600 at one scrape a second is ten"
              + " minutes). At least 10.")
  int retentionSamples() default 600;

  @AttributeDefinition(
      name = "Roll-up window (hours)",
      description =
          "How many hours of one-minute roll-ups (min, avg, max, count) are kept in memory per"
              + " series, 16 bytes a minute (about 1 KB per series at 1 hour); older minutes are"
              + " in the roll-up folder's files. 0 turns roll-ups off; at most 24.")
  int rollupHours() default 1;

  @AttributeDefinition(
      name = "Roll-up folder",
      description =
          "Folder where the closed minutes of every series are archived, one file per hour, and read"
              + " back on start. Empty: roll-ups are kept in memory only.")
  String rollupFolder() default "";

  @AttributeDefinition(
      name = "Roll-up file retention (days)",
      description = "Roll-up files older than this many days are deleted. At least 1.")
  int rollupRetentionDays() default 7;

  @AttributeDefinition(
      name = "Roll-up write interval (minutes)",
      description =
          "How often the closed minutes are written to the roll-up folder, in minutes (1 to 60). A"
              + " crash loses at most this many minutes.")
  int rollupFlushMinutes() default 1;

  @AttributeDefinition(
      name = "Series per target",
      description =
          "Series one target may create since start (a dcgm-exporter page has about a thousand);"
              + " samples of more are dropped and the target says so.",
      min = "1")
  int maxSeriesPerTarget() default 10_000;

  @AttributeDefinition(
      name = "New series per scrape",
      description = "Series one page may create; more are taken as room allows, a page at a time.",
      min = "1")
  int maxNewSeriesPerScrape() default 4_096;

  @AttributeDefinition(
      name = "Nodes per target",
      description =
          "Nodes (Hostname values) one target may file samples under since start; samples of"
              + " more are dropped.",
      min = "1")
  int maxNodesPerTarget() default 64;

  @AttributeDefinition(
      name = "Series in memory",
      description =
          "Series telemetry holds at most, all targets together; 0 sizes it to 60% of the heap at"
              + " the configured retention (about 8 KB a series at 600 samples).",
      min = "0")
  int maxSeries() default 0;
}
