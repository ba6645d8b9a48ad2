package io.bulwark.remediation.internal;

import io.bulwark.api.audit.AuditEvent;
import io.bulwark.api.audit.AuditLog;
import io.bulwark.api.audit.AuditOutcome;
import io.bulwark.api.remediation.Guardrails;
import io.bulwark.api.remediation.Policy;
import io.bulwark.api.remediation.Run;
import io.bulwark.api.scheduler.SchedulerConnector;
import io.bulwark.api.security.Principal;
import io.bulwark.api.security.Role;
import io.bulwark.web.api.ApiProblem;
import io.bulwark.web.api.ApiRequest;
import io.bulwark.web.api.ApiRoute;
import io.bulwark.web.api.RouteContributor;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import java.time.Instant;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

/**
 * The remediation API: runs (list, detail, start by hand, cancel, approve), policies (list, their
 * versions, change), guardrails, the kill switch and the circuit breaker. Every change is
 * authorised by role, audited with the caller, then made; a refusal is audited as FAILURE.
 * Operators run the day-to-day (start, cancel, approve, pull the kill switch); only admins change
 * policies and limits, release the kill switch and reset the breaker.
 */
@Component(service = RouteContributor.class)
public final class RemediationRoutes implements RouteContributor {
  private static final Set<Role> OPERATE = EnumSet.of(Role.ADMIN, Role.OPERATOR);
  private static final Set<Role> ADMIN = EnumSet.of(Role.ADMIN);

  private final RemediationEngine engine;
  private final Schedulers schedulers;
  private final AuditLog audit;

  @Activate
  public RemediationRoutes(
      @Reference RemediationEngine engine,
      @Reference Schedulers schedulers,
      @Reference AuditLog audit) {
    this.engine = engine;
    this.schedulers = schedulers;
    this.audit = audit;
  }

  @Override
  public String name() {
    return "remediation";
  }

  @Override
  public List<ApiRoute> routes() {
    return List.of(
        ApiRoute.get("/api/v1/remediation", ApiRoute.ANY_ROLE, this::overview),
        ApiRoute.get("/api/v1/remediation/runs", ApiRoute.ANY_ROLE, this::runs),
        ApiRoute.post("/api/v1/remediation/runs", OPERATE, this::start),
        ApiRoute.get("/api/v1/remediation/runs/:run", ApiRoute.ANY_ROLE, this::run),
        ApiRoute.post("/api/v1/remediation/runs/:run/cancel", OPERATE, this::cancel),
        ApiRoute.post("/api/v1/remediation/runs/:run/approve", OPERATE, this::approve),
        ApiRoute.get("/api/v1/remediation/policies", ApiRoute.ANY_ROLE, this::policies),
        ApiRoute.get("/api/v1/remediation/policies/:policy", ApiRoute.ANY_ROLE, this::policy),
        ApiRoute.put("/api/v1/remediation/policies/:policy", ADMIN, this::savePolicy),
        ApiRoute.put("/api/v1/remediation/guardrails", ADMIN, this::saveGuardrails),
        ApiRoute.post("/api/v1/remediation/kill-switch", OPERATE, this::killSwitch),
        ApiRoute.post("/api/v1/remediation/breaker/reset", ADMIN, this::resetBreaker));
  }

  static JsonObject overview(RemediationEngine engine, Schedulers schedulers) {
    Map<String, Integer> counts = RunCounts.of(engine.runs(Integer.MAX_VALUE));
    JsonObject c = new JsonObject();
    counts.forEach(c::put);
    return new JsonObject()
        .put("guardrails", RunJson.guardrails(engine.guardrails()))
        .put("isolated", engine.isolatedNow())
        .put("isolationLimit", engine.isolationLimit())
        .put("runs", c)
        .put("steps", new JsonArray(engine.steps()))
        .put(
            "schedulers",
            new JsonArray(schedulers.connectors().stream().map(SchedulerConnector::name).toList()));
  }

  private void overview(RoutingContext ctx) {
    ApiRequest.json(ctx, overview(engine, schedulers));
  }

  private void runs(RoutingContext ctx) {
    String state = ctx.request().getParam("state");
    String node = ctx.request().getParam("node");
    int limit = limit(ctx.request().getParam("limit"));
    JsonArray out = new JsonArray();
    for (Run r : engine.runs(Integer.MAX_VALUE)) {
      if (state != null
          && !state.equals(r.state().apiName())
          && !("active".equals(state) && !r.state().isFinal())) {
        continue;
      }
      if (node != null && !node.equals(r.node().value()) && !node.equals(r.hostname())) {
        continue;
      }
      out.add(RunJson.run(r));
      if (out.size() >= limit) {
        break;
      }
    }
    ApiRequest.json(ctx, new JsonObject().put("runs", out));
  }

  private static int limit(String text) {
    if (text == null) {
      return 500;
    }
    try {
      int n = Integer.parseInt(text);
      if (n < 1 || n > 10_000) {
        throw new NumberFormatException();
      }
      return n;
    } catch (NumberFormatException e) {
      throw ApiProblem.invalidParameter("limit", "'limit' is a number from 1 to 10000");
    }
  }

  private void run(RoutingContext ctx) {
    String id = ctx.pathParam("run");
    Run r = engine.run(id).orElseThrow(() -> ApiProblem.notFound("no remediation run " + id));
    ApiRequest.json(ctx, RunJson.run(r));
  }

  private void start(RoutingContext ctx) {
    JsonObject body = ApiRequest.onlyFields(ApiRequest.body(ctx), "finding", "policy");
    String finding = ApiRequest.text(body, "finding", null);
    if (finding == null || finding.isBlank()) {
      throw ApiProblem.invalidBody("'finding' is required: the id of an open finding");
    }
    String policy = ApiRequest.text(body, "policy", null);
    Map<String, String> d = new LinkedHashMap<>();
    d.put("finding", finding);
    d.put("policy", policy == null ? "(matching)" : policy);
    Run r;
    try {
      r = engine.start(finding.strip(), policy, caller(ctx));
    } catch (NoSuchElementException e) {
      refuse(ctx, "remediation.run-start", finding, d, e.getMessage());
      throw ApiProblem.notFound(e.getMessage());
    } catch (IllegalStateException e) {
      refuse(ctx, "remediation.run-start", finding, d, e.getMessage());
      throw ApiProblem.conflict(e.getMessage());
    }
    d.put("run", r.id());
    audit.append(event(ctx, "remediation.run-start", r.hostname(), AuditOutcome.SUCCESS, d));
    ApiRequest.json(ctx, 201, RunJson.run(r));
  }

  private void cancel(RoutingContext ctx) {
    String id = ctx.pathParam("run");
    JsonObject body =
        ctx.body() == null || ctx.body().length() == 0
            ? new JsonObject()
            : ApiRequest.onlyFields(ApiRequest.body(ctx), "reason");
    String reason = ApiRequest.text(body, "reason", "");
    if (reason.length() > 500) {
      throw ApiProblem.invalidBody("'reason' is at most 500 characters");
    }
    Map<String, String> d = Map.of("run", id, "reason", reason);
    Run r;
    try {
      r = engine.cancel(id, reason, caller(ctx));
    } catch (NoSuchElementException e) {
      refuse(ctx, "remediation.run-cancel", id, d, e.getMessage());
      throw ApiProblem.notFound(e.getMessage());
    } catch (IllegalStateException e) {
      refuse(ctx, "remediation.run-cancel", id, d, e.getMessage());
      throw ApiProblem.conflict(e.getMessage());
    }
    audit.append(event(ctx, "remediation.run-cancel", r.hostname(), AuditOutcome.SUCCESS, d));
    ApiRequest.json(ctx, RunJson.run(r));
  }

  private void approve(RoutingContext ctx) {
    String id = ctx.pathParam("run");
    JsonObject body = ApiRequest.onlyFields(ApiRequest.body(ctx), "step", "jobsMayBeKilled");
    Object step = body.getValue("step");
    if (!(step instanceof Number n) || n.doubleValue() != n.intValue() || n.intValue() < 0) {
      throw ApiProblem.invalidBody(
          "'step' is required: the index (from 0) of the step you approve, as the run shows it");
    }
    Run before = engine.run(id).orElse(null);
    if (before == null) {
      refuse(ctx, "remediation.step-approve", id, Map.of("run", id), "no such run");
      throw ApiProblem.notFound("no remediation run " + id);
    }
    Object kills = body.getValue("jobsMayBeKilled", false);
    if (!(kills instanceof Boolean jobsMayBeKilled)) {
      throw ApiProblem.invalidBody(
          "'jobsMayBeKilled' is true or false: true confirms that approving a step on a node no"
              + " scheduler drained kills any job still running there");
    }
    Map<String, String> d = new LinkedHashMap<>();
    d.put("run", id);
    d.put("step", Integer.toString(n.intValue()));
    if (jobsMayBeKilled) {
      d.put("jobsMayBeKilled", "true");
    }
    if (n.intValue() < before.steps().size()) {
      d.put("stepName", before.steps().get(n.intValue()).step().toString());
    }
    // Audited before it is done: an approval that the audit log cannot take is not given.
    audit.append(
        event(ctx, "remediation.step-approve", before.hostname(), AuditOutcome.SUCCESS, d));
    Run r;
    try {
      r = engine.approve(id, n.intValue(), caller(ctx), jobsMayBeKilled);
    } catch (IllegalStateException e) {
      refuse(ctx, "remediation.step-approve", id, d, e.getMessage());
      throw ApiProblem.conflict(e.getMessage());
    }
    ApiRequest.json(ctx, RunJson.run(r));
  }

  private void policies(RoutingContext ctx) {
    JsonArray out = new JsonArray();
    for (Policy p : engine.policies()) {
      out.add(RunJson.policy(p));
    }
    ApiRequest.json(
        ctx, new JsonObject().put("policies", out).put("steps", new JsonArray(engine.steps())));
  }

  private void policy(RoutingContext ctx) {
    String id = ctx.pathParam("policy");
    List<Policy> versions = engine.policyHistory(id);
    if (versions.isEmpty()) {
      throw ApiProblem.notFound("no remediation policy " + id);
    }
    JsonArray history = new JsonArray();
    versions.forEach(p -> history.add(RunJson.policy(p)));
    ApiRequest.json(
        ctx, RunJson.policy(versions.get(versions.size() - 1)).put("versions", history));
  }

  private void savePolicy(RoutingContext ctx) {
    String id = ctx.pathParam("policy");
    JsonObject body = ApiRequest.body(ctx);
    Policy parsed;
    try {
      parsed = RunJson.policy(body, id, 1, caller(ctx), Instant.now());
    } catch (IllegalArgumentException e) {
      refuse(ctx, "remediation.policy-change", id, Map.of("error", e.getMessage()), e.getMessage());
      throw ApiProblem.invalidBody(e.getMessage());
    }
    Map<String, String> d = new LinkedHashMap<>();
    d.put("mode", parsed.mode().apiName());
    d.put("enabled", Boolean.toString(parsed.enabled()));
    d.put("steps", parsed.steps().toString());
    d.put("kinds", parsed.kinds().toString());
    try {
      engine.checkPolicy(parsed);
    } catch (IllegalArgumentException e) {
      refuse(ctx, "remediation.policy-change", id, d, e.getMessage());
      throw ApiProblem.invalidBody(e.getMessage());
    }
    // Checked, audited, then stored.
    audit.append(event(ctx, "remediation.policy-change", id, AuditOutcome.SUCCESS, d));
    Policy saved = engine.savePolicy(parsed, caller(ctx));
    ApiRequest.json(ctx, RunJson.policy(saved));
  }

  private void saveGuardrails(RoutingContext ctx) {
    JsonObject body = ApiRequest.body(ctx);
    Guardrails g;
    try {
      g = RunJson.guardrails(body, engine.guardrails());
    } catch (IllegalArgumentException | ClassCastException e) {
      refuse(ctx, "remediation.guardrails-change", "", Map.of(), e.getMessage());
      throw ApiProblem.invalidBody(e.getMessage());
    }
    Map<String, String> d = new LinkedHashMap<>();
    RunJson.guardrails(g).forEach(e -> d.put(e.getKey(), String.valueOf(e.getValue())));
    d.remove("killSwitch");
    d.remove("breakerOpen");
    d.remove("failuresInARow");
    audit.append(event(ctx, "remediation.guardrails-change", "", AuditOutcome.SUCCESS, d));
    Guardrails saved = engine.saveGuardrails(g, caller(ctx));
    ApiRequest.json(ctx, RunJson.guardrails(saved));
  }

  private void killSwitch(RoutingContext ctx) {
    JsonObject body = ApiRequest.body(ctx);
    Object on = body.getValue("on");
    if (!(on instanceof Boolean b)) {
      refuse(ctx, "remediation.kill-switch", "", Map.of(), "'on' is not true or false");
      throw ApiProblem.invalidBody("'on' must be true (stop all automation) or false (resume it)");
    }
    Principal caller = ApiRequest.caller(ctx);
    Map<String, String> d = Map.of("on", b.toString());
    if (!b && caller.role() != Role.ADMIN) {
      refuse(ctx, "remediation.kill-switch", "", d, "only an admin turns the kill switch off");
      throw ApiProblem.forbidden(
          "only an admin turns the kill switch off; operators may turn it on");
    }
    if (b) {
      // Stopping comes first: the kill switch acts even if the audit log refuses the record.
      Guardrails g = engine.killSwitch(true, caller.name());
      audit.append(event(ctx, "remediation.kill-switch", "", AuditOutcome.SUCCESS, d));
      ApiRequest.json(ctx, RunJson.guardrails(g));
      return;
    }
    audit.append(event(ctx, "remediation.kill-switch", "", AuditOutcome.SUCCESS, d));
    ApiRequest.json(ctx, RunJson.guardrails(engine.killSwitch(false, caller.name())));
  }

  private void resetBreaker(RoutingContext ctx) {
    Guardrails before = engine.guardrails();
    audit.append(
        event(
            ctx,
            "remediation.breaker-reset",
            "",
            AuditOutcome.SUCCESS,
            Map.of(
                "wasOpen",
                Boolean.toString(before.breakerOpen()),
                "failuresInARow",
                Integer.toString(before.failuresInARow()))));
    ApiRequest.json(ctx, RunJson.guardrails(engine.resetBreaker(caller(ctx))));
  }

  private void refuse(
      RoutingContext ctx, String action, String target, Map<String, String> d, String why) {
    Map<String, String> details = new LinkedHashMap<>(d);
    details.put("refused", why);
    audit.append(event(ctx, action, target, AuditOutcome.FAILURE, details));
  }

  private static String caller(RoutingContext ctx) {
    return ApiRequest.caller(ctx).name();
  }

  private static AuditEvent event(
      RoutingContext ctx,
      String action,
      String target,
      AuditOutcome outcome,
      Map<String, String> d) {
    Principal caller = ApiRequest.caller(ctx);
    return new AuditEvent(caller.name(), ApiRequest.source(ctx), action, target, outcome, d);
  }
}
