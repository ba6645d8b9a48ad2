package io.bulwark.api.health;

import io.bulwark.api.fleet.Node;
import io.bulwark.api.telemetry.TelemetryQuery;
import java.util.List;
import org.osgi.annotation.versioning.ProviderType;

/**
 * What a detector evaluates: the recent telemetry, the inventory, and the time of this evaluation.
 * Provided by the health engine for one evaluation; valid only during {@link Detector#evaluate}.
 */
@ProviderType
public interface DetectionContext {

  /** The recent samples of every series. */
  TelemetryQuery telemetry();

  /** The nodes of the inventory with the GPUs installed in them. */
  List<Node> inventory();

  /** The time of this evaluation, epoch milliseconds; use it instead of the clock. */
  long nowMillis();
}
