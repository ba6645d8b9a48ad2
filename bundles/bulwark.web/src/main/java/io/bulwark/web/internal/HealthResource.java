package io.bulwark.web.internal;

import io.bulwark.api.security.CryptoModuleStatus;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.time.Instant;

/**
 * {@code GET /api/v1/health}: that the appliance is up, since when, every bundle's symbolic name,
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

  void health(RoutingContext ctx) {
    Instant now = services.clock().instant();
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
            .put("status", "UP")
            .put("startedAt", started.toString())
            .put("uptimeSeconds", Math.max(0, Duration.between(started, now).toSeconds()))
            .put("webStartedAt", webStarted.toString())
            .put("security", security())
            .put("bundles", bundles)
            .put("detectors", new JsonArray(services.health().detectors())));
  }
}
