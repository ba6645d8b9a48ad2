package io.bulwark.api.telemetry;

import java.time.Instant;
import java.util.Objects;

/**
 * What the last scrape of one target gave: whether it is up, when it was scraped, how long it took,
 * how many samples it brought, and the error an operator needs to act on (empty when up).
 *
 * @param node the node the samples were filed under, or empty before the first successful scrape
 * @param lastScrape null before the first scrape
 */
public record TargetStatus(
    ScrapeTarget target,
    Health health,
    String node,
    Instant lastScrape,
    long lastDurationMicros,
    int samples,
    String lastError) {

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
  }
}
