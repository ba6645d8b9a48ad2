package io.bulwark.web.internal;

import io.bulwark.api.security.CryptoModuleStatus;
import io.bulwark.api.system.SubsystemStatus;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * {@code GET /api/v1/health}: the appliance's state (the worst of its subsystems': UP, DEGRADED or
 * DOWN) and each subsystem's report (store, audit log, telemetry, health engine, admin plane…:
 * state, what it sees, what to do, since when), since when it runs, every bundle's symbolic name,
 * version and state, and the detectors the health engine uses. For operators and for probes.
 */
final class HealthResource {
  private final AdminServices services;
  private final Instant webStarted;

  HealthResource(AdminServices services) {
    this.services = services;
    this.webStarted = services.clock().instant();
  }

  private JsonObject security() {
    CryptoModuleStatus crypto = services.security().crypto().get();
    boolean sealed = services.security().secretsSealedToTpm().getAsBoolean();
    return new JsonObject()
        .put(
            "cryptoModule",
            new JsonObject()
                .put("name", crypto.name())
                .put("version", crypto.version())
                .put("approvedOnly", crypto.approvedOnly())
                .put("selfTestsPassed", crypto.selfTestsPassed()))
        .put("secretsSealedToTpm", sealed)
        .put("developmentMode", !sealed);
  }

  private static JsonArray subsystems(List<SubsystemStatus> statuses) {
    JsonArray all = new JsonArray();
    for (SubsystemStatus s : statuses) {
      JsonObject measurements = new JsonObject();
      s.measurements().forEach((k, v) -> measurements.put(k, ApiJson.finite(v)));
      all.add(
          new JsonObject()
              .put("subsystem", s.subsystem())
              .put("state", s.state().name())
              .put("summary", s.summary())
              .put("action", s.action())
              .put("since", ApiJson.instant(s.since()))
              .put("measurements", measurements));
    }
    return all;
  }

  void health(RoutingContext ctx) {
    Instant now = services.clock().instant();
    List<SubsystemStatus> statuses = services.subsystems().statuses();
    Instant started = Instant.ofEpochMilli(ManagementFactory.getRuntimeMXBean().getStartTime());
    JsonArray bundles = new JsonArray();
    services
        .bundles()
        .bundles()
        .forEach(
            b ->
                bundles.add(
                    new JsonObject()
                        .put("id", b.id())
                        .put("symbolicName", b.symbolicName())
                        .put("version", b.version())
                        .put("state", b.state())));
    ApiJson.send(
        ctx,
        new JsonObject()
            .put("status", SubsystemChecks.overall(statuses).name())
            .put("subsystems", subsystems(statuses))
            .put("startedAt", started.toString())
            .put("uptimeSeconds", Math.max(0, Duration.between(started, now).toSeconds()))
            .put("webStartedAt", webStarted.toString())
            .put("security", security())
            .put("bundles", bundles)
            .put("detectors", new JsonArray(services.health().detectors())));
  }
}
