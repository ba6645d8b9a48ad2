package io.bulwark.inventory.internal;

import io.bulwark.api.fleet.FleetRepository;
import io.bulwark.api.telemetry.TelemetryQuery;
import java.time.Clock;

/**
 * The real inventory feed ({@link TelemetryInventory}) on a virtual clock, run on demand by the
 * scenario replays before each evaluation instead of on its own thread, so that the inventory holds
 * every GPU the replay's exporters reported (a GPU that falls off the bus stays in it).
 */
public final class VirtualInventory {
  private final TelemetryInventory feed;

  public VirtualInventory(TelemetryQuery telemetry, FleetRepository fleet, Clock clock) {
    this.feed = new TelemetryInventory(new InventoryRecorder(telemetry, fleet), clock);
  }

  /** Runs one round at the clock's present time. */
  public void round() {
    feed.round();
  }
}
