package io.bulwark.web.internal;

import io.bulwark.api.health.CapacityReport;
import io.bulwark.api.telemetry.TargetStatus;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import java.util.List;

/** {@code GET /api/v1/telemetry/targets} (every scrape target and how its last scrape went). */
final class OverviewResource {
  private final AdminServices services;

  OverviewResource(AdminServices services) {
    this.services = services;
  }

  void targets(RoutingContext ctx) {
    JsonArray targets = new JsonArray();
    List<TargetStatus> statuses = services.targets().targets();
    statuses.forEach(t -> targets.add(ApiJson.target(t)));
    long up = statuses.stream().filter(t -> t.health() == TargetStatus.Health.UP).count();
    ApiJson.send(
        ctx, new JsonObject().put("targets", targets).put("count", targets.size()).put("up", up));
  }

  /** Returns the health engine's latest account, or an empty one before its first evaluation. */
  static CapacityReport capacity(AdminServices services) {
    CapacityReport report = services.health().capacity();
    return report != null ? report : CapacityReport.of(services.clock().instant(), List.of());
  }
}
