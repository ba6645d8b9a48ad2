package io.bulwark.inventory.internal;

import io.bulwark.api.fleet.FleetRepository;
import io.bulwark.api.telemetry.TelemetryQuery;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;

/**
 * Feeds the inventory from telemetry: every {@value #ROUND_MILLIS} ms, on its own thread, records
 * the nodes and GPUs that telemetry reports and the inventory lacks. A round the store refuses is
 * logged once when the refusals start and once when they end, not on every round; what it could not
 * record is tried again on the next round. Until a node is recorded the health engine evaluates it
 * from telemetry alone, so nothing waits on this.
 */
@Component(service = {})
public final class TelemetryInventory {
  static final long ROUND_MILLIS = 2_000;
  private static final Logger LOG = System.getLogger(TelemetryInventory.class.getName());

  private final InventoryRecorder recorder;
  private final Clock clock;
  private volatile ScheduledExecutorService rounds;
  private volatile boolean failing;

  @Activate
  public TelemetryInventory(@Reference TelemetryQuery telemetry, @Reference FleetRepository fleet) {
    this(new InventoryRecorder(telemetry, fleet), Clock.systemUTC());
  }

  TelemetryInventory(InventoryRecorder recorder, Clock clock) {
    this.recorder = recorder;
    this.clock = clock;
  }

  /** Starts the rounds on the component's own thread. */
  @Activate
  void start() {
    ScheduledExecutorService s =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "bulwark-inventory");
              t.setDaemon(true);
              return t;
            });
    rounds = s;
    s.scheduleWithFixedDelay(this::roundSafely, 0, ROUND_MILLIS, TimeUnit.MILLISECONDS);
  }

  /** Runs one round now; returns what it did. Called on the component's thread; tests call it. */
  InventoryRecorder.Round round() {
    InventoryRecorder.Round round = recorder.record(clock.instant());
    if (round.failed() > 0 && !failing) {
      failing = true;
      LOG.log(
          Level.WARNING,
          "Inventory: could not record "
              + round.failed()
              + " node(s) that telemetry reports; retrying every "
              + ROUND_MILLIS / 1000
              + " s (the health engine judges them from telemetry meanwhile). Check the store"
              + " (System page, subsystem store).",
          round.firstError());
    } else if (round.failed() == 0 && failing) {
      failing = false;
      LOG.log(Level.INFO, "Inventory: records again what telemetry reports");
    }
    return round;
  }

  private void roundSafely() {
    try {
      round();
    } catch (RuntimeException e) {
      if (!failing) {
        failing = true;
        LOG.log(
            Level.WARNING,
            "Inventory: could not read the inventory to compare it with telemetry; retrying"
                + " every "
                + ROUND_MILLIS / 1000
                + " s. Check the store (System page, subsystem store).",
            e);
      }
    }
  }

  @Deactivate
  void stop() {
    ScheduledExecutorService s = rounds;
    if (s != null) {
      s.shutdownNow();
    }
  }
}
