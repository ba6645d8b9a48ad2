package io.bulwark.health.internal;

import io.bulwark.api.fleet.FleetRepository;
import io.bulwark.api.health.Detector;
import io.bulwark.api.health.FindingListener;
import io.bulwark.api.health.FindingRepository;
import io.bulwark.api.telemetry.TelemetryQuery;
import java.time.Clock;
import java.util.List;

/**
 * The real {@link HealthEngine} (detector roster, finding tracker with hysteresis, publisher) on a
 * virtual clock, evaluated on demand by the scenario replays instead of on its own thread. Not
 * thread-safe; one replay uses one instance.
 */
public final class VirtualHealthEngine {
  /** The engine's default resolve delay (ms), as {@link HealthEngineConfig} declares it. */
  public static final long RESOLVE_AFTER_MILLIS = 10_000;

  private final HealthEngine engine;

  /**
   * Creates the engine with the default resolve delay and start-up grace, evaluating every {@code
   * intervalMillis} of virtual time.
   */
  public VirtualHealthEngine(
      TelemetryQuery telemetry,
      FleetRepository fleet,
      FindingRepository findings,
      Clock clock,
      long intervalMillis,
      List<Detector> detectors,
      FindingListener listener) {
    engine =
        new HealthEngine(
            telemetry,
            fleet,
            findings,
            new HealthEngineOptions(intervalMillis, RESOLVE_AFTER_MILLIS, 30_000),
            clock);
    detectors.forEach(engine::addDetector);
    engine.addListener(listener);
  }

  /** Runs one evaluation at the clock's present time. */
  public void evaluate() {
    engine.evaluate();
  }

  /** Returns the names of the detectors taking part. */
  public List<String> detectors() {
    return engine.detectors();
  }
}
