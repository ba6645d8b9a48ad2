package io.bulwark.agents.internal;

import io.bulwark.api.agent.AgentRecord;
import io.bulwark.api.audit.AuditEvent;
import io.bulwark.api.audit.AuditLog;
import io.bulwark.api.audit.AuditOutcome;
import io.bulwark.api.security.Principal;
import io.bulwark.api.security.Role;
import io.bulwark.api.system.AddressBudget;
import io.bulwark.api.system.SteadyClock;
import io.bulwark.lib.pki.Certificates;
import io.bulwark.web.api.ApiProblem;
import io.bulwark.web.api.ApiRequest;
import io.bulwark.web.api.ApiRoute;
import io.bulwark.web.api.RouteContributor;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import java.time.Clock;
import java.time.Duration;
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
 * The node agents' API: the list of enrolled agents and the authority's fingerprint (any role),
 * one-time enrolment tokens and revocation (admins), and the enrolment itself, which a node agent
 * calls with its token instead of a session. Every change is audited, and so are refusals: those of
 * the admins' routes here, those of the anonymous enrolment by the admin plane, counted per client
 * and minute; each address may try to enrol a few times a minute (a burst of {@value #ENROL_BURST},
 * then one every {@value #ENROL_REFILL_SECONDS} s).
 */
@Component(service = RouteContributor.class)
public final class AgentRoutes implements RouteContributor {
  private static final Set<Role> ADMIN = EnumSet.of(Role.ADMIN);

  private final AgentService agents;
  private final AuditLog audit;

  /** Enrolment attempts per address at once; an agent enrols once, so this is never in its way. */
  static final int ENROL_BURST = 10;

  /** Seconds until an address that used its burst may try to enrol again. */
  static final int ENROL_REFILL_SECONDS = 6;

  private final AddressBudget budget;

  @Activate
  public AgentRoutes(@Reference AgentService agents, @Reference AuditLog audit) {
    this(agents, audit, SteadyClock.system()); // the enrolment budget measures durations
  }

  AgentRoutes(AgentService agents, AuditLog audit, Clock clock) {
    this.agents = agents;
    this.audit = audit;
    this.budget = new AddressBudget(ENROL_BURST, ENROL_REFILL_SECONDS, clock);
  }

  @Override
  public String name() {
    return "agents";
  }

  @Override
  public List<ApiRoute> routes() {
    return List.of(
        ApiRoute.get("/api/v1/agents", ApiRoute.ANY_ROLE, this::list),
        ApiRoute.post("/api/v1/agents/enrolment-tokens", ADMIN, this::token),
        // Public: the handler authenticates the one-time token (see the admin plane's access
        // rules).
        ApiRoute.post("/api/v1/agents/enrol", ApiRoute.ANY_ROLE, this::enrol),
        ApiRoute.post("/api/v1/agents/:node/revoke", ADMIN, this::revoke));
  }

  private void list(RoutingContext ctx) {
    JsonArray list = new JsonArray();
    agents.agents().forEach(a -> list.add(json(a)));
    ApiRequest.json(
        ctx,
        new JsonObject()
            .put("authorityFingerprint", Certificates.fingerprint(agents.authorityCertificate()))
            .put("applianceFingerprint", Certificates.fingerprint(agents.applianceCertificate()))
            .put("agents", list));
  }

  static JsonObject json(AgentRecord a) {
    return new JsonObject()
        .put("node", a.node())
        .put("endpoint", a.endpoint())
        .put("serial", a.serial())
        .put("fingerprint", a.fingerprint())
        .put("enrolledAt", a.enrolledAt().toString())
        .put("expiresAt", a.expiresAt().toString())
        .put("revokedAt", a.revokedAt() == null ? null : a.revokedAt().toString())
        .put("revokedBy", a.revokedBy());
  }

  private void token(RoutingContext ctx) {
    JsonObject body = ApiRequest.body(ctx);
    String node = ApiRequest.text(body, "node", "");
    Object minutes = body.getValue("ttlMinutes", 60);
    if (!(minutes instanceof Integer m) || m < 1 || m > 1440) {
      throw ApiProblem.invalidBody("'ttlMinutes' must be a whole number of minutes, 1 to 1440");
    }
    Map<String, String> d = Map.of("node", node, "ttlMinutes", Integer.toString(m));
    String token;
    try {
      token = agents.issueToken(node, Duration.ofMinutes(m), caller(ctx).name());
    } catch (IllegalArgumentException e) {
      audit.append(
          event(ctx, caller(ctx).name(), "agent.enrolment-token", node, AuditOutcome.FAILURE, d));
      throw ApiProblem.invalidBody(e.getMessage());
    }
    audit.append(
        event(ctx, caller(ctx).name(), "agent.enrolment-token", node, AuditOutcome.SUCCESS, d));
    ApiRequest.json(
        ctx,
        201,
        new JsonObject()
            .put("node", node)
            .put("token", token)
            .put("expiresAt", java.time.Instant.now().plus(Duration.ofMinutes(m)).toString()));
  }

  /**
   * {@code POST /api/v1/agents/enrol}, anonymous: authenticated by its one-time token. A refusal is
   * not audited here: the admin plane counts the refusals of its public routes, one record per
   * client and minute (its refusal digest), so that a flood of bad enrolments cannot fill the audit
   * log. What the client sent is recorded only for an enrolment whose token was good, and then only
   * as far as it was checked (the endpoint is host:port of at most 206 characters).
   */
  private void enrol(RoutingContext ctx) {
    String source = ApiRequest.source(ctx);
    long wait = budget.take(source);
    if (wait > 0) {
      throw ApiProblem.tooManyRequests(
          "too many enrolment attempts from " + source + "; try again in " + wait + " s", wait);
    }
    JsonObject body = ApiRequest.body(ctx);
    String endpoint = ApiRequest.text(body, "endpoint", "");
    AgentService.Enrolment e;
    try {
      e =
          agents.enrol(
              ApiRequest.text(body, "token", ""), ApiRequest.text(body, "csr", ""), endpoint);
    } catch (SecurityException ex) {
      throw ApiProblem.forbidden(ex.getMessage());
    } catch (IllegalArgumentException ex) {
      throw ApiProblem.invalidBody(ex.getMessage());
    }
    Map<String, String> d = new LinkedHashMap<>();
    d.put("endpoint", e.record().endpoint());
    d.put("serial", e.record().serial());
    d.put("fingerprint", e.record().fingerprint());
    audit.append(
        event(
            ctx,
            "agent:" + e.record().node(),
            "agent.enrol",
            e.record().node(),
            AuditOutcome.SUCCESS,
            d));
    ApiRequest.json(ctx, agents.enrolmentAnswer(e));
  }

  private void revoke(RoutingContext ctx) {
    String node = ctx.pathParam("node");
    Map<String, String> d = Map.of("node", node);
    AgentRecord r;
    try {
      r = agents.revoke(node, caller(ctx).name());
    } catch (NoSuchElementException e) {
      audit.append(event(ctx, caller(ctx).name(), "agent.revoke", node, AuditOutcome.FAILURE, d));
      throw ApiProblem.notFound(e.getMessage());
    }
    audit.append(
        event(
            ctx,
            caller(ctx).name(),
            "agent.revoke",
            node,
            AuditOutcome.SUCCESS,
            Map.of("node", node, "serial", r.serial())));
    ApiRequest.json(ctx, json(r));
  }

  private static Principal caller(RoutingContext ctx) {
    return ApiRequest.caller(ctx);
  }

  private static AuditEvent event(
      RoutingContext ctx,
      String actor,
      String action,
      String target,
      AuditOutcome outcome,
      Map<String, String> d) {
    return new AuditEvent(actor, ApiRequest.source(ctx), action, target, outcome, d);
  }
}
