package io.bulwark.api.health;

import java.time.Instant;
import java.util.List;
import org.osgi.annotation.versioning.ProviderType;

/**
 * What operators hold back from notifications: maintenance windows on nodes and GPUs, and findings
 * they snoozed. Detection goes on; only notifying stops. Provided by the findings bundle; read by
 * the notification core. Thread-safe; answers from memory.
 *
 * @since 1.4
 */
@ProviderType
public interface Maintenance {

  /** Returns the windows that have not ended at {@code at}, soonest end first. */
  List<MaintenanceWindow> windows(Instant at);

  /**
   * Returns true if notifications of {@code f} are held at {@code at}: a window covers its node or
   * GPU, or it is snoozed.
   */
  default boolean covers(Finding f, Instant at) {
    return windows(at).stream().anyMatch(w -> w.covers(f, at));
  }
}
