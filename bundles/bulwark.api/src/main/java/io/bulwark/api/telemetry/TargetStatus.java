package io.bulwark.api.telemetry;

import java.time.Instant;
import java.util.Objects;

/**
 * What the last scrape of one target gave: whether it is up, when it was scraped, how long it took,
 * how many samples it brought, and the error an operator needs to act on (empty when up).
 *
 * @param node the node the samples were filed under, or empty before the first successful scrape
 * @param lastScrape null before the first scrape
 * @param blankValues how many of the last page's DCGM samples were DCGM blank values (a field DCGM
 *     could not read), dropped as absences
 * @param skipped what the last page carried that was not filed, in an operator's words (blank
 *     values, samples out of order, unreadable GPU labels), or empty
 * @param naming the generation of DCGM field names the target's pages use: {@link #NAMING_DCGM3},
 *     {@link #NAMING_DCGM4}, {@link #NAMING_MIXED}, or empty before a page with DCGM fields
 */
public record TargetStatus(
    ScrapeTarget target,
    Health health,
    String node,
    Instant lastScrape,
    long lastDurationMicros,
    int samples,
    String lastError,
    int blankValues,
    String skipped,
    String naming) {

  /** The field names of DCGM 3.x and dcgm-exporter before DCGM 4 (e.g. DCGM_FI_DEV_SM_CLOCK). */
  public static final String NAMING_DCGM3 = "DCGM 3.x";

  /** The field names of DCGM 4.x (e.g. DCGM_FI_DEV_SM_CLOCK_HERTZ). */
  public static final String NAMING_DCGM4 = "DCGM 4.x";

  /** A page with field names of both generations. */
  public static final String NAMING_MIXED = "DCGM 3.x and 4.x";

  /** The state of a target as Prometheus reports it. */
  public enum Health {
    UNKNOWN,
    UP,
    DOWN
  }

  public TargetStatus {
    Objects.requireNonNull(target, "target");
    Objects.requireNonNull(health, "health");
    node = Objects.requireNonNullElse(node, "");
    lastError = Objects.requireNonNullElse(lastError, "");
    skipped = Objects.requireNonNullElse(skipped, "");
    naming = Objects.requireNonNullElse(naming, "");
  }

  /** A status without blank values, skipped samples or naming. */
  public TargetStatus(
      ScrapeTarget target,
      Health health,
      String node,
      Instant lastScrape,
      long lastDurationMicros,
      int samples,
      String lastError) {
    this(target, health, node, lastScrape, lastDurationMicros, samples, lastError, 0, "", "");
  }
}
