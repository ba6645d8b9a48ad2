package io.bulwark.findings.internal;

import io.bulwark.api.audit.AuditEvent;
import io.bulwark.api.audit.AuditLog;
import io.bulwark.api.audit.AuditOutcome;
import io.bulwark.api.fleet.FleetRepository;
import io.bulwark.api.fleet.NodeId;
import io.bulwark.api.health.Finding;
import io.bulwark.api.health.FindingKind;
import io.bulwark.api.health.FindingQuery;
import io.bulwark.api.health.FindingRepository;
import io.bulwark.api.health.FindingState;
import io.bulwark.api.health.MaintenanceWindow;
import io.bulwark.api.security.Principal;
import io.bulwark.api.security.Role;
import io.bulwark.api.security.UserRepository;
import io.bulwark.web.api.ApiJson;
import io.bulwark.web.api.ApiProblem;
import io.bulwark.web.api.ApiRequest;
import io.bulwark.web.api.ApiRoute;
import io.bulwark.web.api.RouteContributor;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.component.annotations.Reference;

/**
 * A finding's page in the API and the operator's work on it: {@code GET /api/v1/findings/:finding}
 * (the finding, its workflow, timeline, cost so far, related findings on the node), {@code POST
 * …/acknowledge}, {@code …/assign}, {@code …/comments}, {@code …/snooze} (operators and admins: the
 * operator role's write routes), the exports {@code GET /api/v1/findings.csv} and {@code .json},
 * and maintenance windows ({@code GET/POST /api/v1/maintenance}, {@code DELETE
 * /api/v1/maintenance/:id}). Every change is audited before it is answered.
 */
@Component(
    service = RouteContributor.class,
    configurationPid = "io.bulwark.web",
    configurationPolicy = ConfigurationPolicy.OPTIONAL)
public final class FindingRoutes implements RouteContributor {
  static final int MAX_COMMENT = 2000;
  static final int MAX_EXPORT = 100_000;

  private final FindingRepository findings;
  private final Workflow workflow;
  private final AuditLog audit;
  private final UserRepository users;
  private final FleetRepository fleet;
  private final double price;
  private final String currency;

  @Activate
  public FindingRoutes(
      @Reference FindingRepository findings,
      @Reference Workflow workflow,
      @Reference AuditLog audit,
      @Reference UserRepository users,
      @Reference FleetRepository fleet,
      PriceConfig price) {
    this.findings = findings;
    this.workflow = workflow;
    this.audit = audit;
    this.users = users;
    this.fleet = fleet;
    this.price =
        price.gpuHourPrice() > 0 && price.gpuHourPrice() < 1_000_000 ? price.gpuHourPrice() : 0;
    this.currency = price.currency() == null ? "USD" : price.currency().strip();
  }

  @Override
  public String name() {
    return "findings";
  }

  @Override
  public List<ApiRoute> routes() {
    Set<Role> any = ApiRoute.ANY_ROLE;
    Set<Role> operators = Set.of(Role.ADMIN, Role.OPERATOR);
    return List.of(
        ApiRoute.get("/api/v1/findings/:finding", any, this::view),
        ApiRoute.post("/api/v1/findings/:finding/acknowledge", operators, this::acknowledge),
        ApiRoute.post("/api/v1/findings/:finding/assign", operators, this::assign),
        ApiRoute.post("/api/v1/findings/:finding/comments", operators, this::comment),
        ApiRoute.post("/api/v1/findings/:finding/snooze", operators, this::snooze),
        ApiRoute.get("/api/v1/findings.csv", any, ctx -> export(ctx, true)),
        ApiRoute.get("/api/v1/findings.json", any, ctx -> export(ctx, false)),
        ApiRoute.get("/api/v1/maintenance", any, this::maintenance),
        ApiRoute.post("/api/v1/maintenance", operators, this::startMaintenance),
        ApiRoute.delete("/api/v1/maintenance/:id", operators, this::endMaintenance));
  }

  // ---- one finding ----

  void view(RoutingContext ctx) {
    Finding f = finding(ctx);
    ApiRequest.json(ctx, page(f, workflow.note(f.id())));
  }

  void acknowledge(RoutingContext ctx) {
    Finding f = finding(ctx);
    String comment = limited(ApiRequest.text(body(ctx), "comment", ""), "comment");
    String by = ApiRequest.caller(ctx).name();
    Instant now = workflow.clock().instant();
    record(ctx, "finding.acknowledge", f, Map.of("comment", comment));
    Note n =
        workflow.change(
            f.id(),
            "acknowledge finding " + f.id(),
            note ->
                note.acknowledged(by, now).with(new Note.Step(now, "acknowledged", by, comment)));
    ApiRequest.json(ctx, page(f, n));
  }

  void assign(RoutingContext ctx) {
    Finding f = finding(ctx);
    JsonObject body = body(ctx);
    String assignee = ApiRequest.text(body, "assignee", null);
    if (assignee == null) {
      throw ApiProblem.invalidBody("'assignee' is required: a user name, or \"\" to unassign");
    }
    assignee = assignee.strip();
    if (!assignee.isEmpty() && users.user(assignee).isEmpty()) {
      throw ApiProblem.invalidBody("there is no user '" + assignee + "' to assign it to");
    }
    String to = assignee.isEmpty() ? null : assignee;
    String by = ApiRequest.caller(ctx).name();
    Instant now = workflow.clock().instant();
    record(ctx, "finding.assign", f, Map.of("assignee", assignee));
    Note n =
        workflow.change(
            f.id(),
            "assign finding " + f.id(),
            note ->
                note.assigned(to)
                    .with(new Note.Step(now, to == null ? "unassigned" : "assigned", by, to)));
    ApiRequest.json(ctx, page(f, n));
  }

  void comment(RoutingContext ctx) {
    Finding f = finding(ctx);
    String text = ApiRequest.text(body(ctx), "text", "").strip();
    if (text.isEmpty()) {
      throw ApiProblem.invalidBody("'text' is required: the comment, 1 to 2000 characters");
    }
    limited(text, "text");
    String by = ApiRequest.caller(ctx).name();
    Instant now = workflow.clock().instant();
    record(ctx, "finding.comment", f, Map.of("length", Integer.toString(text.length())));
    Note n =
        workflow.change(
            f.id(),
            "comment on finding " + f.id(),
            note -> note.with(new Note.Step(now, "comment", by, text)));
    ApiRequest.json(ctx, 201, page(f, n));
  }

  void snooze(RoutingContext ctx) {
    Finding f = finding(ctx);
    JsonObject body = body(ctx);
    if (!body.containsKey("until")) {
      throw ApiProblem.invalidBody("'until' is required: an ISO-8601 instant, or null to wake it");
    }
    Object value = body.getValue("until");
    Instant now = workflow.clock().instant();
    Instant until = null;
    if (value != null) {
      until = instant(value, "until");
      if (!until.isAfter(now) || until.isAfter(now.plus(Workflow.LONGEST_SNOOZE))) {
        throw ApiProblem.invalidBody(
            "'until' must be in the next " + Workflow.LONGEST_SNOOZE.toDays() + " days");
      }
    }
    String comment = limited(ApiRequest.text(body, "comment", ""), "comment");
    String by = ApiRequest.caller(ctx).name();
    Instant snoozeUntil = until;
    record(
        ctx,
        "finding.snooze",
        f,
        Map.of("until", until == null ? "woken" : until.toString(), "comment", comment));
    Note n =
        workflow.change(
            f.id(),
            "snooze finding " + f.id(),
            note ->
                note.snoozed(snoozeUntil, snoozeUntil == null ? null : by)
                    .with(
                        new Note.Step(
                            now,
                            snoozeUntil == null ? "woken" : "snoozed",
                            by,
                            snoozeUntil == null
                                ? comment
                                : ("until "
                                    + snoozeUntil
                                    + (comment.isEmpty() ? "" : ": " + comment)))));
    ApiRequest.json(ctx, page(f, n));
  }

  // ---- export ----

  void export(RoutingContext ctx, boolean csv) {
    FindingQuery query = query(ctx);
    List<Finding> found = findings.find(query);
    Map<String, Note> notes = workflow.notes();
    String stamp = workflow.clock().instant().toString().replace(":", "").replaceAll("\\..*", "");
    ctx.response()
        .putHeader(
            "Content-Disposition",
            "attachment; filename=\"bulwark-findings-" + stamp + (csv ? ".csv\"" : ".json\""))
        .putHeader("Cache-Control", "no-store");
    if (csv) {
      ctx.response()
          .putHeader("Content-Type", "text/csv; charset=utf-8")
          .end(FindingExport.csv(found, notes));
      return;
    }
    JsonArray out = new JsonArray();
    for (Finding f : found) {
      out.add(
          ApiJson.finding(f)
              .put("workflow", workflowJson(notes.getOrDefault(f.id(), Note.empty(f.id())))));
    }
    ctx.response().putHeader("Content-Type", "application/json").end(out.encode());
  }

  // ---- maintenance ----

  void maintenance(RoutingContext ctx) {
    Instant now = workflow.clock().instant();
    JsonArray list = new JsonArray();
    for (MaintenanceWindow w : workflow.allWindows()) {
      list.add(window(w).put("active", !now.isBefore(w.from()) && now.isBefore(w.until())));
    }
    ApiRequest.json(ctx, new JsonObject().put("windows", list));
  }

  void startMaintenance(RoutingContext ctx) {
    JsonObject body = body(ctx);
    String nodeName = ApiRequest.text(body, "node", null);
    if (nodeName == null || !NodeId.isValid(nodeName)) {
      throw ApiProblem.invalidBody("'node' is required: the node's name");
    }
    Object g = body.getValue("gpu", -1);
    if (!(g instanceof Number gn)
        || gn.doubleValue() != Math.rint(gn.doubleValue())
        || gn.intValue() < -1
        || gn.intValue() > 1023) {
      throw ApiProblem.invalidBody(
          "'gpu' must be a GPU index, or -1 (or absent) for the whole node");
    }
    Object u = body.getValue("until");
    if (u == null) {
      throw ApiProblem.invalidBody("'until' is required: when the maintenance ends (ISO-8601)");
    }
    Instant until = instant(u, "until");
    String reason = ApiRequest.text(body, "reason", "").strip();
    if (reason.isEmpty()) {
      throw ApiProblem.invalidBody(
          "'reason' is required: what the work is, for whoever looks later");
    }
    limited(reason, "reason");
    NodeId node = new NodeId(nodeName);
    Map<String, String> details = new TreeMap<>();
    details.put("gpu", Integer.toString(gn.intValue()));
    details.put("until", until.toString());
    details.put("reason", reason);
    MaintenanceWindow w;
    try {
      w = workflow.start(node, gn.intValue(), until, reason, ApiRequest.caller(ctx).name());
    } catch (IllegalArgumentException e) {
      throw ApiProblem.invalidBody(e.getMessage());
    }
    details.put("id", w.id());
    audit.append(event(ctx, "maintenance.start", node.value(), AuditOutcome.SUCCESS, details));
    ApiRequest.json(ctx, 201, window(w).put("active", true));
  }

  void endMaintenance(RoutingContext ctx) {
    String id = ctx.pathParam("id");
    Optional<MaintenanceWindow> known =
        workflow.allWindows().stream().filter(w -> w.id().equals(id)).findFirst();
    if (known.isEmpty()) {
      throw ApiProblem.notFound("There is no maintenance window '" + id + "'.");
    }
    audit.append(
        event(
            ctx,
            "maintenance.end",
            known.get().node().value(),
            AuditOutcome.SUCCESS,
            Map.of("id", id)));
    workflow.end(id);
    ctx.response().setStatusCode(204).end();
  }

  // ---- helpers ----

  private Finding finding(RoutingContext ctx) {
    String id = ctx.pathParam("finding");
    return findings
        .get(id)
        .orElseThrow(() -> ApiProblem.notFound("There is no finding '" + id + "'."));
  }

  private static JsonObject body(RoutingContext ctx) {
    return ctx.body() == null || ctx.body().length() == 0 ? new JsonObject() : ApiRequest.body(ctx);
  }

  private static String limited(String text, String field) {
    if (text.length() > MAX_COMMENT) {
      throw ApiProblem.invalidBody("'" + field + "' is longer than " + MAX_COMMENT + " characters");
    }
    return text;
  }

  private static Instant instant(Object value, String field) {
    if (!(value instanceof String s)) {
      throw ApiProblem.invalidBody(
          "'" + field + "' must be an ISO-8601 instant, e.g. 2026-12-02T18:00:00Z");
    }
    try {
      return Instant.parse(s);
    } catch (DateTimeParseException e) {
      throw ApiProblem.invalidBody(
          "'"
              + field
              + "' must be an ISO-8601 instant, e.g. 2026-12-02T18:00:00Z, not '"
              + s
              + "'");
    }
  }

  private void record(RoutingContext ctx, String action, Finding f, Map<String, String> details) {
    Map<String, String> d = new TreeMap<>(details);
    d.put("finding", f.id());
    d.put("kind", f.kind());
    d.entrySet().removeIf(e -> e.getValue().isEmpty());
    String target = f.gpu() < 0 ? f.node().value() : f.node().value() + " GPU " + f.gpu();
    audit.append(event(ctx, action, target, AuditOutcome.SUCCESS, d));
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

  private static FindingQuery query(RoutingContext ctx) {
    FindingQuery q = FindingQuery.all().withLimit(MAX_EXPORT);
    String state = ctx.request().getParam("state");
    if (state != null && !state.equals("all")) {
      switch (state) {
        case "open" -> q = q.withState(FindingState.OPEN);
        case "resolved" -> q = q.withState(FindingState.RESOLVED);
        default -> throw ApiProblem.invalidParameter("state", "'state' is open, resolved or all");
      }
    }
    String kind = ctx.request().getParam("kind");
    if (kind != null) {
      if (!FindingKind.isValid(kind)) {
        throw ApiProblem.invalidParameter("kind", "'" + kind + "' is not a finding kind");
      }
      q = q.withKind(kind);
    }
    String node = ctx.request().getParam("node");
    if (node != null) {
      if (!NodeId.isValid(node)) {
        throw ApiProblem.invalidParameter("node", "'" + node + "' is not a node name");
      }
      q = q.withNode(new NodeId(node));
    }
    String limit = ctx.request().getParam("limit");
    if (limit != null) {
      try {
        int n = Integer.parseInt(limit);
        if (n < 1 || n > MAX_EXPORT) {
          throw new NumberFormatException();
        }
        q = q.withLimit(n);
      } catch (NumberFormatException e) {
        throw ApiProblem.invalidParameter("limit", "'limit' is a number from 1 to " + MAX_EXPORT);
      }
    }
    return q;
  }

  /** The finding page: the finding, its workflow, timeline, cost so far and related findings. */
  JsonObject page(Finding f, Note note) {
    Instant now = workflow.clock().instant();
    JsonArray timeline = new JsonArray();
    List<JsonObject> steps = new ArrayList<>();
    steps.add(step(f.firstSeen(), "opened", "bulwark", f.summary()));
    for (Note.Step s : note.steps()) {
      steps.add(step(s.at(), s.event(), s.by(), s.text()));
    }
    for (MaintenanceWindow w : workflow.allWindows()) {
      if (w.node().equals(f.node()) && (w.gpu() == -1 || w.gpu() == f.gpu())) {
        Instant end = f.resolvedAt() == null ? now : f.resolvedAt();
        if (w.from().isBefore(end) && w.until().isAfter(f.firstSeen())) {
          steps.add(
              step(w.from(), "maintenance", w.by(), "until " + w.until() + ": " + w.reason()));
        }
      }
    }
    if (f.resolvedAt() != null) {
      steps.add(step(f.resolvedAt(), "resolved", "bulwark", ""));
    }
    steps.sort(Comparator.comparing(j -> j.getString("at")));
    steps.forEach(timeline::add);

    double hours =
        Duration.between(f.firstSeen(), f.resolvedAt() == null ? now : f.resolvedAt()).toMillis()
            / 3_600_000.0
            * f.capacityLoss()
            * gpusAffected(f);
    JsonObject cost =
        new JsonObject()
            .put("gpuHours", Math.round(hours * 1000) / 1000.0)
            .put("money", price > 0 ? Math.round(hours * price * 100) / 100.0 : null)
            .put("currency", price > 0 ? currency : null);
    JsonArray related = new JsonArray();
    for (Finding r : findings.find(FindingQuery.all().withNode(f.node()).withLimit(21))) {
      if (!r.id().equals(f.id()) && related.size() < 20) {
        related.add(ApiJson.finding(r));
      }
    }
    return new JsonObject()
        .put("finding", ApiJson.finding(f))
        .put("workflow", workflowJson(note))
        .put("timeline", timeline)
        .put("cost", cost)
        .put("related", related);
  }

  private int gpusAffected(Finding f) {
    if (f.gpu() >= 0) {
      return 1;
    }
    return fleet.node(f.node()).map(n -> Math.max(1, n.gpus().size())).orElse(1);
  }

  static JsonObject workflowJson(Note n) {
    JsonArray comments = new JsonArray();
    for (Note.Step c : n.comments()) {
      comments.add(
          new JsonObject().put("by", c.by()).put("at", c.at().toString()).put("text", c.text()));
    }
    return new JsonObject()
        .put("acknowledgedBy", n.acknowledgedBy())
        .put("acknowledgedAt", ApiJson.instant(n.acknowledgedAt()))
        .put("assignee", n.assignee())
        .put("snoozedUntil", ApiJson.instant(n.snoozedUntil()))
        .put("snoozedBy", n.snoozedBy())
        .put("comments", comments);
  }

  private static JsonObject step(Instant at, String event, String by, String text) {
    return new JsonObject()
        .put("at", at.toString())
        .put("event", event)
        .put("by", by)
        .put("text", text);
  }

  private static JsonObject window(MaintenanceWindow w) {
    return new JsonObject()
        .put("id", w.id())
        .put("node", w.node().value())
        .put("gpu", w.gpu())
        .put("from", w.from().toString())
        .put("until", w.until().toString())
        .put("reason", w.reason())
        .put("by", w.by());
  }
}
