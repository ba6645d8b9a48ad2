package io.bulwark.api.health;

import java.util.List;
import org.osgi.annotation.versioning.ConsumerType;

/**
 * A health detector: looks at recent telemetry and reports the conditions it sees now. Detectors
 * are plugins: register one as an OSGi service and the health engine calls it on every evaluation
 * (every few seconds); remove it and its findings resolve.
 *
 * <p>The engine handles finding life cycles (open, update, resolve with hysteresis): a detector
 * reports only what holds at {@link DetectionContext#nowMillis()}, judged over whatever window it
 * needs ("sustained for 20 s"). Called from one engine thread at a time; must not block on I/O. An
 * exception fails this evaluation of this detector only and is logged.
 */
@ConsumerType
public interface Detector {

  /** A short name for logs and the health page, e.g. {@code "xid"}. */
  String name();

  /** Returns the conditions that hold now. Never null. */
  List<Condition> evaluate(DetectionContext context);

  /**
   * Returns the telemetry fields this detector reads, so that the appliance can tell an operator
   * which exporters leave it blind. Empty for a detector that reads no telemetry field.
   *
   * @since 1.3
   */
  default List<DetectorInput> inputs() {
    return List.of();
  }

  /**
   * Returns how often this detector needs to judge, in milliseconds: a detector whose verdict rests
   * on a long window (a rate over minutes, a state sustained for half a minute) gains nothing from
   * being asked every few seconds, and its share of the engine's time falls with the interval.
   * Between two of its evaluations the engine holds the conditions it last reported. The default,
   * 0, asks it at every evaluation.
   *
   * @since 1.5
   */
  default long evaluationIntervalMillis() {
    return 0;
  }
}
