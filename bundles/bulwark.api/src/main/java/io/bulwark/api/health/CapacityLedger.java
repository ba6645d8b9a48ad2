package io.bulwark.api.health;

import java.time.Instant;
import java.util.List;
import org.osgi.annotation.versioning.ProviderType;

/**
 * Keeps the hourly capacity account so that the lost GPU-hours survive a restart and can be shown
 * over days and weeks. Provided by the store bundle; written by the health engine. Thread-safe.
 *
 * @since 1.2
 */
@ProviderType
public interface CapacityLedger {

  /** Saves {@code interval}, replacing one saved earlier with the same start. Durable on return. */
  void save(CapacityInterval interval);

  /** Returns the intervals that start at or after {@code from}, oldest first. */
  List<CapacityInterval> since(Instant from);
}
