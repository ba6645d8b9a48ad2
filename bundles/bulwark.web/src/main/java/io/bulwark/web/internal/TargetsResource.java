package io.bulwark.web.internal;

import io.bulwark.api.telemetry.TargetStatus;
import io.bulwark.api.telemetry.TelemetryTargets;
import io.bulwark.web.api.ApiRequest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import java.util.List;

/** {@code GET /api/v1/telemetry/targets}: every scrape target and how its last scrape went. */
final class TargetsResource {
  private final TelemetryTargets targets;

  TargetsResource(TelemetryTargets targets) {
    this.targets = targets;
  }

  void targets(RoutingContext ctx) {
    JsonArray out = new JsonArray();
    List<TargetStatus> statuses = targets.targets();
    statuses.forEach(t -> out.add(ApiJson.target(t)));
    long up = statuses.stream().filter(t -> t.health() == TargetStatus.Health.UP).count();
    ApiRequest.json(
        ctx, new JsonObject().put("targets", out).put("count", out.size()).put("up", up));
  }
}
