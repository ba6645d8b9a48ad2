package io.bulwark.web.internal;

import io.bulwark.api.health.HealthService;
import io.bulwark.api.security.CryptoModuleStatus;
import io.bulwark.api.system.SubsystemStatus;
import io.bulwark.web.api.ApiRequest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import java.lang.management.ManagementFactory;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.function.Supplier;

/**
 * {@code GET /api/v1/health}: the appliance's state (the worst of its subsystems': UP, DEGRADED or
 * DOWN) and each subsystem's report (store, audit log, telemetry, health engine, admin plane…:
 * state, what it sees, what to do, since when), since when it runs, every bundle's symbolic name,
 * version and state, and the detectors the health engine uses. For operators and for probes.
 */
final class HealthResource {
  private final SecurityPosture security;
  private final SubsystemChecks subsystems;
  private final BundleInventory bundles;
  private final Supplier<HealthService> health;
  private final Clock clock;
  private final Instant webStarted;

  /** {@code health} gives the health engine, or null while it is not running. */
  HealthResource(
      SecurityPosture security,
      SubsystemChecks subsystems,
      BundleInventory bundles,
      Supplier<HealthService> health,
      Clock clock) {
    this.security = security;
    this.subsystems = subsystems;
    this.bundles = bundles;
    this.health = health;
    this.clock = clock;
    this.webStarted = clock.instant();
  }

  private JsonObject security() {
    CryptoModuleStatus crypto = security.crypto().get();
    boolean sealed = security.secretsSealedToTpm().getAsBoolean();
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
    Instant now = clock.instant();
    List<SubsystemStatus> statuses = subsystems.statuses();
    Instant started = Instant.ofEpochMilli(ManagementFactory.getRuntimeMXBean().getStartTime());
    JsonArray installed = new JsonArray();
    bundles
        .bundles()
        .forEach(
            b ->
                installed.add(
                    new JsonObject()
                        .put("id", b.id())
                        .put("symbolicName", b.symbolicName())
                        .put("version", b.version())
                        .put("state", b.state())));
    ApiRequest.json(
        ctx,
        new JsonObject()
            .put("status", SubsystemChecks.overall(statuses).name())
            .put("subsystems", subsystems(statuses))
            .put("startedAt", started.toString())
            .put("uptimeSeconds", Math.max(0, Duration.between(started, now).toSeconds()))
            .put("webStartedAt", webStarted.toString())
            .put("security", security())
            .put("bundles", installed)
            .put("detectors", detectors()));
  }

  private JsonArray detectors() {
    HealthService engine = health.get();
    return engine == null ? new JsonArray() : new JsonArray(engine.detectors());
  }
}
