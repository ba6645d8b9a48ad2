package io.bulwark.compliance.internal;

import io.bulwark.api.audit.AuditEvent;
import io.bulwark.api.audit.AuditLog;
import io.bulwark.api.audit.AuditOutcome;
import io.bulwark.api.compliance.CheckResult;
import io.bulwark.api.compliance.CheckStatus;
import io.bulwark.api.security.Role;
import io.bulwark.web.api.ApiRequest;
import io.bulwark.web.api.ApiRoute;
import io.bulwark.web.api.RouteContributor;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

/**
 * {@code GET /api/v1/compliance}: the STIG the map follows, the counts by status and by category
 * (open CAT I, II, III), and every rule with its status, finding details (the evidence) and
 * comments; {@code POST /api/v1/compliance/run} (admins and auditors, audited) runs the checks now.
 */
@Component(service = RouteContributor.class)
public final class ComplianceRoutes implements RouteContributor {
  private final ComplianceEngine engine;
  private final AuditLog audit;

  @Activate
  public ComplianceRoutes(@Reference ComplianceEngine engine, @Reference AuditLog audit) {
    this.engine = engine;
    this.audit = audit;
  }

  @Override
  public String name() {
    return "compliance";
  }

  @Override
  public List<ApiRoute> routes() {
    return List.of(
        ApiRoute.get("/api/v1/compliance", ApiRoute.ANY_ROLE, this::report),
        ApiRoute.post("/api/v1/compliance/run", Set.of(Role.ADMIN, Role.AUDITOR), this::run));
  }

  private void report(RoutingContext ctx) {
    ApiRequest.json(ctx, report(engine));
  }

  /** The report as the API answers it. */
  static JsonObject report(ComplianceEngine engine) {
    RequirementMap.Stig s = engine.map().stig();
    Map<CheckStatus, Integer> byStatus = new EnumMap<>(CheckStatus.class);
    Map<String, Integer> openByCategory =
        new TreeMap<>(Map.of("CAT I", 0, "CAT II", 0, "CAT III", 0));
    JsonArray rules = new JsonArray();
    for (ComplianceEngine.RuleStatus r : engine.rules()) {
      byStatus.merge(r.status(), 1, Integer::sum);
      if (r.status() == CheckStatus.OPEN) {
        openByCategory.merge(r.rule().category(), 1, Integer::sum);
      }
      RequirementMap.Rule rule = r.rule();
      rules.add(
          new JsonObject()
              .put("groupId", rule.groupId())
              .put("ruleId", rule.ruleId())
              .put("stigId", rule.stigId())
              .put("severity", rule.severity())
              .put("category", rule.category())
              .put("title", rule.title())
              .put("ccis", new JsonArray(rule.ccis()))
              .put("disposition", rule.disposition().name().toLowerCase().replace('_', '-'))
              .put("check", rule.check().isEmpty() ? null : rule.check())
              .put("status", r.status().ckl())
              .put("findingDetails", r.findingDetails())
              .put("comments", r.comments())
              .put("checkedAt", r.ranAt() == null ? null : r.ranAt().toString()));
    }
    JsonObject counts = new JsonObject();
    for (CheckStatus st : CheckStatus.values()) {
      counts.put(st.ckl(), byStatus.getOrDefault(st, 0));
    }
    JsonArray checks = new JsonArray();
    engine
        .checks()
        .forEach((id, c) -> checks.add(new JsonObject().put("id", id).put("title", c.title())));
    return new JsonObject()
        .put(
            "stig",
            new JsonObject()
                .put("id", s.id())
                .put("title", s.title())
                .put("version", s.version())
                .put("release", s.release())
                .put("date", s.date()))
        .put("counts", counts)
        .put("openByCategory", new JsonObject(new java.util.LinkedHashMap<>(openByCategory)))
        .put("checks", checks)
        .put("rules", rules);
  }

  private void run(RoutingContext ctx) {
    String by = ApiRequest.caller(ctx).name();
    String source = ApiRequest.source(ctx);
    ctx.vertx()
        .executeBlocking(
            () -> {
              Map<String, CheckResult> results = engine.runAll();
              Map<String, String> details = new TreeMap<>();
              results.forEach((id, r) -> details.put(id, r.status().ckl()));
              audit.append(
                  new AuditEvent(
                      by, source, "compliance.run", "checks", AuditOutcome.SUCCESS, details));
              return report(engine);
            },
            false)
        .onSuccess(report -> ApiRequest.json(ctx, report))
        .onFailure(ctx::fail);
  }
}
