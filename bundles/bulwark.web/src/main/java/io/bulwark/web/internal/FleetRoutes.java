package io.bulwark.web.internal;

import io.bulwark.api.audit.AuditLog;
import io.bulwark.api.audit.AuditUnavailableException;
import io.bulwark.api.fleet.FleetRepository;
import io.bulwark.api.health.HealthService;
import io.bulwark.api.security.Role;
import io.bulwark.api.telemetry.TelemetryQuery;
import io.bulwark.api.telemetry.TelemetryTargets;
import io.bulwark.web.api.ApiRoute;
import io.bulwark.web.api.RouteContributor;
import java.time.Clock;
import java.util.List;
import java.util.Set;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.osgi.service.component.annotations.ReferencePolicyOption;

/**
 * The fleet's routes: nodes (list, detail, removal of invented or departed ones), findings, the
 * capacity account (in money when {@code gpuHourPrice} of {@code io.bulwark.web} is set) and the
 * telemetry targets. Served while the health engine, the inventory and telemetry are; the audit log
 * is bound dynamically, so that only node removal waits for it.
 */
@Component(
    service = RouteContributor.class,
    configurationPid = WebServer.PID,
    configurationPolicy = ConfigurationPolicy.OPTIONAL)
public final class FleetRoutes implements RouteContributor {
  private final ServiceSlot<AuditLog> audit =
      new ServiceSlot<>(() -> new AuditUnavailableException("the audit log is not running", null));
  private final List<ApiRoute> routes;

  @Activate
  public FleetRoutes(
      @Reference HealthService health,
      @Reference FleetRepository fleet,
      @Reference TelemetryQuery telemetry,
      @Reference TelemetryTargets targets,
      WebConfig config) {
    this(
        health,
        fleet,
        telemetry,
        targets,
        new GpuHourPrice(config.gpuHourPrice(), config.currency()),
        Clock.systemUTC());
  }

  FleetRoutes(
      HealthService health,
      FleetRepository fleet,
      TelemetryQuery telemetry,
      TelemetryTargets targets,
      GpuHourPrice price,
      Clock clock) {
    NodesResource nodes = new NodesResource(health, fleet, telemetry, targets, clock);
    NodeRemoval removal = new NodeRemoval(fleet, telemetry, targets, audit, clock);
    FindingsResource findings = new FindingsResource(health);
    CapacityResource capacity = new CapacityResource(health, targets, price, clock);
    TargetsResource targetsResource = new TargetsResource(targets);
    CoverageResource coverage = new CoverageResource(health);
    Set<Role> any = ApiRoute.ANY_ROLE;
    Set<Role> admin = Set.of(Role.ADMIN);
    this.routes =
        List.of(
            ApiRoute.get("/api/v1/nodes", any, nodes::list),
            ApiRoute.get("/api/v1/nodes/:node", any, nodes::detail),
            ApiRoute.delete("/api/v1/nodes/:node", admin, removal::removeOne),
            ApiRoute.post("/api/v1/nodes/remove-silent", admin, removal::removeSilent),
            ApiRoute.get("/api/v1/findings", any, findings::list),
            ApiRoute.get("/api/v1/capacity", any, capacity::capacity),
            ApiRoute.get("/api/v1/telemetry/targets", any, targetsResource::targets),
            ApiRoute.get("/api/v1/telemetry/coverage", any, coverage::coverage));
  }

  @Reference(
      cardinality = ReferenceCardinality.OPTIONAL,
      policy = ReferencePolicy.DYNAMIC,
      policyOption = ReferencePolicyOption.GREEDY,
      unbind = "unbindAudit")
  void bindAudit(AuditLog log) {
    audit.set(log);
  }

  void unbindAudit(AuditLog log) {
    audit.clear(log);
  }

  @Override
  public String name() {
    return "fleet";
  }

  @Override
  public List<ApiRoute> routes() {
    return routes;
  }
}
