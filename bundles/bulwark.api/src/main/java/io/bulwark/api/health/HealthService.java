package io.bulwark.api.health;

import java.time.Instant;
import java.util.List;
import org.osgi.annotation.versioning.ProviderType;

/**
 * The health of the fleet as the engine judges it: findings and the capacity account. Provided by
 * the health bundle; used by the web API and the diagnostics. Thread-safe.
 */
@ProviderType
public interface HealthService {

  /** Returns the findings that match, newest first. */
  List<Finding> findings(FindingQuery query);

  /** Returns the latest capacity account (recomputed on every evaluation). */
  CapacityReport capacity();

  /**
   * Returns the hourly capacity account from {@code from} on, oldest first, the current hour
   * included as far as it has gone.
   *
   * @since 1.2
   */
  default List<CapacityInterval> capacityHistory(Instant from) {
    return List.of();
  }

  /**
   * Returns, per node that reports telemetry now, the detectors that cannot fully see it because
   * its exporter does not serve their inputs, by node.
   *
   * @since 1.3
   */
  default List<NodeCoverage> coverage() {
    return List.of();
  }

  /** Returns the names of the detectors currently taking part. */
  List<String> detectors();
}
