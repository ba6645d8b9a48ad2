package io.bulwark.health.internal;

import io.bulwark.api.fleet.Node;
import io.bulwark.api.health.DetectionContext;
import io.bulwark.api.telemetry.TelemetryQuery;
import java.util.List;

/**
 * What the detectors see in one evaluation: telemetry, the inventory as read at its start, and its
 * time. Made by the health engine for each evaluation.
 */
record EvaluationContext(TelemetryQuery telemetry, List<Node> inventory, long nowMillis)
    implements DetectionContext {

  EvaluationContext {
    inventory = List.copyOf(inventory);
  }
}
