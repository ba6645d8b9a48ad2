package io.bulwark.machines.internal;

import io.bulwark.api.audit.AuditEvent;
import io.bulwark.api.audit.AuditLog;
import io.bulwark.api.audit.AuditOutcome;
import io.bulwark.api.bmc.BmcInventory;
import io.bulwark.api.bmc.BmcLogEntry;
import io.bulwark.api.bmc.BmcSensor;
import io.bulwark.api.bmc.BootDevice;
import io.bulwark.api.fleet.FleetRepository;
import io.bulwark.api.fleet.NodeId;
import io.bulwark.api.health.FindingQuery;
import io.bulwark.api.health.HealthService;
import io.bulwark.api.machine.Machine;
import io.bulwark.api.machine.MachineEvent;
import io.bulwark.api.machine.MachineId;
import io.bulwark.api.machine.MachineOperation;
import io.bulwark.api.machine.MachineRefusedException;
import io.bulwark.api.machine.MachineState;
import io.bulwark.api.machine.NewMachine;
import io.bulwark.api.remediation.MachineActionGuard;
import io.bulwark.api.security.Principal;
import io.bulwark.api.security.Role;
import io.bulwark.api.telemetry.SampleWindow;
import io.bulwark.api.telemetry.SeriesId;
import io.bulwark.api.telemetry.TelemetryQuery;
import io.bulwark.web.api.ApiJson;
import io.bulwark.web.api.ApiProblem;
import io.bulwark.web.api.ApiRequest;
import io.bulwark.web.api.ApiRoute;
import io.bulwark.web.api.RouteContributor;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;

/**
 * The machines API: {@code GET /api/v1/machines} (filters {@code state}, {@code rack}, {@code tag},
 * {@code power}), {@code GET …/:machine} (with what it allows now), {@code GET …/:machine/history},
 * {@code POST /api/v1/machines} (admin: add one, its BMC credentials sealed at once), {@code POST
 * …/:machine/:operation} (admins and operators), {@code DELETE …/:machine} (admin). Every change is
 * checked, audited, then made; a refusal is audited as FAILURE and answered 409 naming the state.
 */
@Component(service = RouteContributor.class)
public final class MachineRoutes implements RouteContributor {
  static final int MAX_REASON = 500;

  static final int MAX_HISTORY_MINUTES = 1_440;
  static final int MAX_OPEN_FINDINGS = 100_000;

  private final MachineRegistry machines;
  private final AuditLog audit;

  // Optional and dynamic (DS field references): without them the routes answer with what the
  // machines bundle itself knows.
  @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC)
  private volatile TelemetryQuery telemetry;

  @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC)
  private volatile FleetRepository fleet;

  @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC)
  private volatile HealthService health;

  @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC)
  private volatile MachineActionGuard guard;

  private final OutOfServiceGuard guardrails = new OutOfServiceGuard(() -> guard);

  @Activate
  public MachineRoutes(@Reference MachineRegistry machines, @Reference AuditLog audit) {
    this.machines = machines;
    this.audit = audit;
  }

  @Override
  public String name() {
    return "machines";
  }

  @Override
  public List<ApiRoute> routes() {
    Set<Role> any = ApiRoute.ANY_ROLE;
    Set<Role> operators = Set.of(Role.ADMIN, Role.OPERATOR);
    Set<Role> admin = Set.of(Role.ADMIN);
    return List.of(
        ApiRoute.get("/api/v1/machines", any, this::list),
        ApiRoute.post("/api/v1/machines", admin, this::add),
        ApiRoute.post("/api/v1/machines/import", admin, this::importMachines),
        ApiRoute.get("/api/v1/machines/:machine", any, this::detail),
        ApiRoute.get("/api/v1/machines/:machine/history", any, this::history),
        ApiRoute.get("/api/v1/machines/:machine/sensors", any, this::sensors),
        ApiRoute.get("/api/v1/machines/:machine/inventory", any, this::inventory),
        ApiRoute.get("/api/v1/machines/:machine/sensors/history", any, this::sensorHistory),
        ApiRoute.post("/api/v1/machines/:machine/pin-certificate", admin, this::pin),
        ApiRoute.put("/api/v1/machines/:machine/bmc", admin, this::setBmc),
        ApiRoute.post("/api/v1/machines/:machine/:operation", operators, this::operate),
        ApiRoute.delete("/api/v1/machines/:machine", admin, this::delete));
  }

  void list(RoutingContext ctx) {
    MachineState state = param(ctx, "state", MachineState::parse, "a machine state such as ready");
    String rack = ctx.request().getParam("rack");
    String tag = ctx.request().getParam("tag");
    String power = ctx.request().getParam("power");
    String linkedTo = ctx.request().getParam("node");
    // The GPUs of each machine's node and its open findings, looked up once for the whole list.
    Map<NodeId, Integer> gpus = new java.util.HashMap<>();
    FleetRepository f = fleet;
    if (f != null) {
      f.nodes().forEach(n -> gpus.put(n.id(), n.gpus().size()));
    }
    Map<NodeId, Integer> open = new java.util.HashMap<>();
    HealthService h = health;
    if (h != null) {
      h.findings(FindingQuery.open().withLimit(MAX_OPEN_FINDINGS))
          .forEach(x -> open.merge(x.node(), 1, Integer::sum));
    }
    JsonArray list = new JsonArray();
    for (Machine m : machines.machines()) {
      if ((state == null || m.state() == state)
          && (rack == null || m.rack().equals(rack))
          && (tag == null || m.tags().contains(tag))
          && (power == null || m.power().apiName().equals(power))
          && (linkedTo == null || (m.node() != null && m.node().value().equals(linkedTo)))) {
        NodeId node =
            m.node() != null
                ? m.node()
                : NodeId.isValid(m.hostname()) ? NodeId.of(m.hostname()) : null;
        list.add(
            json(m)
                .put("gpus", node == null ? null : gpus.get(node))
                .put("openFindings", node == null ? 0 : open.getOrDefault(node, 0)));
      }
    }
    ApiRequest.json(ctx, new JsonObject().put("machines", list).put("count", list.size()));
  }

  void detail(RoutingContext ctx) {
    Machine m = existing(ctx);
    JsonArray allowed = new JsonArray();
    machines.allowed(m.id()).forEach(op -> allowed.add(op.apiName()));
    ApiRequest.json(ctx, guardrails.describe(m, json(m).put("allowed", allowed)));
  }

  void history(RoutingContext ctx) {
    Machine m = existing(ctx);
    JsonArray events = new JsonArray();
    for (MachineEvent e : machines.history(m.id(), MachineFormats.MAX_HISTORY)) {
      events.add(
          new JsonObject()
              .put("seq", e.seq())
              .put("at", ApiJson.instant(e.at()))
              .put("operation", e.operation())
              .put("from", e.from().apiName())
              .put("to", e.to().apiName())
              .put("by", e.by())
              .put("reason", e.reason()));
    }
    ApiRequest.json(ctx, new JsonObject().put("machine", m.id().value()).put("history", events));
  }

  void sensors(RoutingContext ctx) {
    Machine m = existing(ctx);
    JsonObject answer = new JsonObject().put("machine", m.id().value());
    machines
        .lastPoll(m.id())
        .ifPresentOrElse(
            p -> {
              JsonArray sensors = new JsonArray();
              for (BmcSensor s : p.sensors()) {
                sensors.add(
                    new JsonObject()
                        .put("name", s.name())
                        .put("kind", s.kind().name().toLowerCase(Locale.ROOT).replace('_', '-'))
                        .put("value", finite(s.value()))
                        .put("unit", s.unit())
                        .put("health", s.health().isEmpty() ? null : s.health())
                        .put("lowerCritical", finite(s.lowerCritical()))
                        .put("upperCritical", finite(s.upperCritical())));
              }
              JsonArray events = new JsonArray();
              for (BmcLogEntry e : p.events()) {
                events.add(
                    new JsonObject()
                        .put("id", e.id())
                        .put("created", ApiJson.instant(e.created()))
                        .put("severity", e.severity())
                        .put("message", e.message())
                        .put("sensorType", e.sensorType().isEmpty() ? null : e.sensorType()));
              }
              answer
                  .put("readAt", ApiJson.instant(java.time.Instant.ofEpochMilli(p.atMillis())))
                  .put("error", p.error().isEmpty() ? null : p.error())
                  .put("sensors", sensors)
                  .put("events", events);
            },
            () ->
                answer
                    .put("readAt", null)
                    .put("error", null)
                    .put("sensors", new JsonArray())
                    .put("events", new JsonArray()));
    ApiRequest.json(ctx, answer);
  }

  /**
   * The machine's BMC sensors over the last {@code minutes} (1 to 1440, default 60), from the
   * telemetry series they are kept in on the machine's GPU node: one series per sensor of the
   * latest read, with its name, kind and unit.
   */
  void sensorHistory(RoutingContext ctx) {
    Machine m = existing(ctx);
    int minutes = minutes(ctx.queryParams().get("minutes"));
    long to = System.currentTimeMillis();
    long from = to - minutes * 60_000L;
    JsonArray series = new JsonArray();
    TelemetryQuery t = telemetry;
    var poll = machines.lastPoll(m.id());
    if (t != null && m.node() != null && poll.isPresent()) {
      for (BmcSensor s : poll.get().sensors()) {
        String metric = MachineRegistry.sensorMetric(s);
        SampleWindow w = t.window(SeriesId.of(m.node(), SeriesId.NODE_LEVEL, metric), from);
        JsonArray points = new JsonArray();
        for (int i = 0; i < w.size(); i++) {
          points.add(new JsonArray().add(w.timestamp(i)).add(w.value(i)));
        }
        series.add(
            new JsonObject()
                .put("metric", metric)
                .put("name", s.name())
                .put("kind", s.kind().name().toLowerCase(Locale.ROOT).replace('_', '-'))
                .put("unit", s.unit())
                .put("points", points));
      }
    }
    ApiRequest.json(
        ctx,
        new JsonObject()
            .put("machine", m.id().value())
            .put("node", m.node() == null ? null : m.node().value())
            .put("from", from)
            .put("to", to)
            .put("series", series));
  }

  private static int minutes(String text) {
    if (text == null || text.isBlank()) {
      return 60;
    }
    try {
      int n = Integer.parseInt(text.strip());
      if (n >= 1 && n <= MAX_HISTORY_MINUTES) {
        return n;
      }
    } catch (NumberFormatException e) {
      // answered below
    }
    throw ApiProblem.invalidParameter(
        "minutes",
        "minutes must be a whole number from 1 to " + MAX_HISTORY_MINUTES + ", was " + text);
  }

  void inventory(RoutingContext ctx) {
    Machine m = existing(ctx);
    JsonArray parts = new JsonArray();
    machines
        .inventory(m.id())
        .ifPresent(
            inventory -> {
              for (BmcInventory.Component c : inventory.components()) {
                JsonObject details = new JsonObject();
                new java.util.TreeMap<>(c.details()).forEach(details::put);
                parts.add(
                    new JsonObject()
                        .put("kind", c.kind().name().toLowerCase(Locale.ROOT))
                        .put("id", c.id())
                        .put("name", c.name())
                        .put("manufacturer", c.manufacturer())
                        .put("model", c.model())
                        .put("serial", c.serial())
                        .put("details", details));
              }
            });
    ApiRequest.json(ctx, new JsonObject().put("machine", m.id().value()).put("components", parts));
  }

  private static Double finite(double v) {
    return Double.isFinite(v) ? v : null;
  }

  void add(RoutingContext ctx) {
    MachineInput.Parsed in;
    try {
      in = MachineInput.parse(ApiRequest.body(ctx));
    } catch (IllegalArgumentException e) {
      throw ApiProblem.invalidBody(e.getMessage());
    }
    try {
      ApiRequest.json(ctx, 201, json(addOne(ctx, in)));
    } finally {
      in.clear();
    }
  }

  /** Audits, then adds one checked machine; a refusal is audited as FAILURE and answered. */
  private Machine addOne(RoutingContext ctx, MachineInput.Parsed in) {
    NewMachine n = in.machine();
    Map<String, String> details = new TreeMap<>();
    details.put("hostname", n.hostname());
    if (n.bmc() != null) {
      details.put("bmc", n.bmc().toString());
    }
    audit.append(event(ctx, "machine.add", n.id().value(), AuditOutcome.SUCCESS, details));
    try {
      return machines.add(n, in.username(), in.password(), ApiRequest.caller(ctx).name());
    } catch (IllegalArgumentException e) {
      details.put("error", e.getMessage());
      audit.append(event(ctx, "machine.add", n.id().value(), AuditOutcome.FAILURE, details));
      throw e.getMessage().contains("already")
          ? ApiProblem.conflict(e.getMessage())
          : ApiProblem.invalidBody(e.getMessage());
    }
  }

  /**
   * Adds the machines of a site inventory: {@code {"machines":[…]}} (each as for one add) or {@code
   * {"csv":"…"}}, with {@code "dryRun": true} to check only. Every row is checked first; if any
   * cannot be used, nothing is added and every problem is listed with its row. Machines whose id
   * exists are left as they are (an import can be run again).
   */
  void importMachines(RoutingContext ctx) {
    JsonObject body = ApiRequest.body(ctx);
    List<JsonObject> rows = new ArrayList<>();
    try {
      if (body.getValue("csv") instanceof String csv) {
        rows.addAll(MachineInput.csv(csv));
      } else if (body.getValue("machines") instanceof JsonArray list) {
        for (Object o : list) {
          if (!(o instanceof JsonObject m)) {
            throw new IllegalArgumentException("'machines' is a list of objects");
          }
          rows.add(m);
        }
      } else {
        throw new IllegalArgumentException(
            "give 'machines' (a list of machines) or 'csv' (the inventory as CSV with a header row)");
      }
    } catch (IllegalArgumentException e) {
      throw ApiProblem.invalidBody(e.getMessage());
    }
    if (rows.size() > MachineInput.MAX_ROWS) {
      throw ApiProblem.invalidBody("at most " + MachineInput.MAX_ROWS + " machines per import");
    }
    boolean dryRun = Boolean.TRUE.equals(body.getValue("dryRun"));
    List<MachineInput.Parsed> parsed = new ArrayList<>();
    JsonArray problems = new JsonArray();
    Set<String> seen = new java.util.HashSet<>();
    JsonArray results = new JsonArray();
    try {
      for (int r = 0; r < rows.size(); r++) {
        try {
          MachineInput.Parsed in = MachineInput.parse(rows.get(r));
          if (!seen.add(in.machine().id().value())) {
            throw new IllegalArgumentException(
                "machine '" + in.machine().id() + "' is in the import twice");
          }
          parsed.add(in);
        } catch (IllegalArgumentException e) {
          problems.add(new JsonObject().put("row", r + 1).put("error", e.getMessage()));
        }
      }
      if (!problems.isEmpty()) {
        StringBuilder detail =
            new StringBuilder()
                .append(problems.size())
                .append(" of ")
                .append(rows.size())
                .append(" machines cannot be used, so nothing was added: ");
        for (int i = 0; i < Math.min(20, problems.size()); i++) {
          JsonObject p = problems.getJsonObject(i);
          detail
              .append(i == 0 ? "" : "; ")
              .append("row ")
              .append(p.getInteger("row"))
              .append(": ")
              .append(p.getString("error"));
        }
        if (problems.size() > 20) {
          detail.append("; and ").append(problems.size() - 20).append(" more");
        }
        throw ApiProblem.invalidBody(detail.toString());
      }
      int added = 0;
      int existing = 0;
      for (MachineInput.Parsed in : parsed) {
        MachineId id = in.machine().id();
        if (machines.machine(id).isPresent()) {
          existing++;
          results.add(new JsonObject().put("id", id.value()).put("result", "exists"));
          continue;
        }
        if (!dryRun) {
          addOne(ctx, in);
        }
        added++;
        results.add(
            new JsonObject().put("id", id.value()).put("result", dryRun ? "would add" : "added"));
      }
      ApiRequest.json(
          ctx,
          dryRun ? 200 : 201,
          new JsonObject()
              .put("dryRun", dryRun)
              .put("added", dryRun ? 0 : added)
              .put("wouldAdd", dryRun ? added : 0)
              .put("existing", existing)
              .put("machines", results));
    } finally {
      parsed.forEach(MachineInput.Parsed::clear);
    }
  }

  void operate(RoutingContext ctx) {
    Machine m = existing(ctx);
    String name = ctx.pathParam("operation");
    MachineOperation op =
        MachineOperation.parse(name)
            .filter(o -> o != MachineOperation.DELETE)
            .orElseThrow(
                () ->
                    ApiProblem.notFound(
                        "There is no machine operation '"
                            + name
                            + "'. Operations: "
                            + String.join(
                                ", ",
                                Arrays.stream(MachineOperation.values())
                                    .filter(o -> o != MachineOperation.DELETE)
                                    .map(MachineOperation::apiName)
                                    .toList())
                            + " (to delete a machine, DELETE /api/v1/machines/"
                            + m.id()
                            + ")."));
    if (op == MachineOperation.SET_BOOT) {
      JsonObject body = ApiRequest.body(ctx);
      String deviceName = ApiRequest.text(body, "device", null);
      BootDevice device =
          Arrays.stream(BootDevice.values())
              .filter(d -> d.name().toLowerCase(Locale.ROOT).replace('_', '-').equals(deviceName))
              .findFirst()
              .orElseThrow(
                  () -> ApiProblem.invalidBody("'device' is pxe, http, disk, bios-setup or none"));
      Object once = body.getValue("once");
      if (once != null && !(once instanceof Boolean)) {
        throw ApiProblem.invalidBody("'once' is true (the next boot only) or false (from now on)");
      }
      boolean onlyOnce = once == null || (Boolean) once;
      change(
          ctx,
          m,
          op,
          Map.of("device", deviceName, "once", Boolean.toString(onlyOnce)),
          (reason, by) -> machines.setNextBoot(m.id(), device, onlyOnce, reason, by));
      return;
    }
    change(ctx, m, op, Map.of(), (reason, by) -> machines.operate(m.id(), op, reason, by));
  }

  void pin(RoutingContext ctx) {
    Machine m = existing(ctx);
    String sha256 = required(ApiRequest.body(ctx), "sha256").toLowerCase(Locale.ROOT);
    Map<String, String> details = new TreeMap<>();
    details.put("sha256", sha256);
    details.put("bmc", m.bmc() == null ? "" : m.bmc().toString());
    audit.append(
        event(ctx, "machine.pin-certificate", m.id().value(), AuditOutcome.SUCCESS, details));
    try {
      ApiRequest.json(
          ctx, json(machines.pinCertificate(m.id(), sha256, ApiRequest.caller(ctx).name())));
    } catch (MachineRefusedException e) {
      refused(ctx, "machine.pin-certificate", m, details, e.getMessage());
    }
  }

  /**
   * Gives the machine its BMC: {@code {protocol, address, port, username, password, sha256}} as for
   * an added machine. The credentials are sealed, never logged nor audited.
   */
  void setBmc(RoutingContext ctx) {
    Machine m = existing(ctx);
    MachineInput.Bmc in;
    try {
      in = MachineInput.bmc(ApiRequest.body(ctx));
    } catch (IllegalArgumentException e) {
      throw ApiProblem.invalidBody(e.getMessage());
    }
    try {
      Map<String, String> details = new TreeMap<>();
      details.put("bmc", in.endpoint().toString());
      details.put("before", m.bmc() == null ? "" : m.bmc().toString());
      audit.append(event(ctx, "machine.set-bmc", m.id().value(), AuditOutcome.SUCCESS, details));
      try {
        ApiRequest.json(
            ctx,
            json(
                machines.setBmc(
                    m.id(),
                    in.endpoint(),
                    in.username(),
                    in.password(),
                    ApiRequest.caller(ctx).name())));
      } catch (MachineRefusedException e) {
        refused(ctx, "machine.set-bmc", m, details, e.getMessage());
      } catch (IllegalArgumentException e) {
        details.put("error", e.getMessage());
        audit.append(event(ctx, "machine.set-bmc", m.id().value(), AuditOutcome.FAILURE, details));
        throw ApiProblem.invalidBody(e.getMessage());
      }
    } finally {
      in.clear();
    }
  }

  void delete(RoutingContext ctx) {
    Machine m = existing(ctx);
    change(
        ctx,
        m,
        MachineOperation.DELETE,
        Map.of(),
        (reason, by) -> machines.operate(m.id(), MachineOperation.DELETE, reason, by));
  }

  private void change(
      RoutingContext ctx,
      Machine m,
      MachineOperation op,
      Map<String, String> extra,
      java.util.function.BiFunction<String, String, Machine> work) {
    String reason = reason(ctx);
    Map<String, String> details = new TreeMap<>();
    details.put("from", m.state().apiName());
    details.put("operation", op.apiName());
    details.putAll(extra);
    if (!reason.isEmpty()) {
      details.put("reason", reason);
    }
    String action = "machine." + op.apiName();
    java.util.Optional<String> refused = machines.refusal(m.id(), op);
    if (refused.isPresent()) {
      refused(ctx, action, m, details, refused.get());
    }
    Principal caller = ApiRequest.caller(ctx);
    java.util.Optional<String> guardrail =
        guardrails.check(m, op, caller.role(), override(ctx), reason, details);
    if (guardrail.isPresent()) {
      refused(ctx, action, m, details, guardrail.get());
    }
    audit.append(event(ctx, action, m.id().value(), AuditOutcome.SUCCESS, details));
    try {
      Machine after = work.apply(reason, ApiRequest.caller(ctx).name());
      if (op == MachineOperation.DELETE) {
        ctx.response().setStatusCode(204).end();
        return;
      }
      // A BMC operation is accepted and carried out in the background: its result shows on the
      // machine ('pending' empties) and in its history.
      ApiRequest.json(ctx, op.isPower() ? 202 : 200, json(after));
    } catch (MachineRefusedException e) {
      // Another request changed the machine between the check and the operation.
      refused(ctx, action, m, details, e.getMessage());
    }
  }

  private void refused(
      RoutingContext ctx, String action, Machine m, Map<String, String> details, String why) {
    details.put("error", why);
    audit.append(event(ctx, action, m.id().value(), AuditOutcome.FAILURE, details));
    throw ApiProblem.conflict(why);
  }

  /** Returns the body's {@code override}: an admin's "go ahead although a guardrail refuses". */
  private static boolean override(RoutingContext ctx) {
    String body = ctx.body() == null ? null : ctx.body().asString();
    if (body == null || body.isBlank()) {
      return false;
    }
    Object o = ApiRequest.body(ctx).getValue("override", false);
    if (!(o instanceof Boolean b)) {
      throw ApiProblem.invalidBody(
          "'override' is true (an admin goes ahead although a guardrail refuses) or false");
    }
    return b;
  }

  private String reason(RoutingContext ctx) {
    String body = ctx.body() == null ? null : ctx.body().asString();
    if (body == null || body.isBlank()) {
      return "";
    }
    String reason = ApiRequest.text(ApiRequest.body(ctx), "reason", "").strip();
    if (reason.length() > MAX_REASON) {
      throw ApiProblem.invalidBody("'reason' is at most " + MAX_REASON + " characters");
    }
    return reason;
  }

  private Machine existing(RoutingContext ctx) {
    String id = ctx.pathParam("machine");
    if (!MachineId.isValid(id)) {
      throw ApiProblem.notFound("There is no machine '" + id + "'.");
    }
    try {
      return machines
          .machine(MachineId.of(id))
          .orElseThrow(() -> new NoSuchElementException("There is no machine '" + id + "'."));
    } catch (NoSuchElementException e) {
      throw ApiProblem.notFound(e.getMessage());
    }
  }

  static JsonObject json(Machine m) {
    JsonObject bmc = null;
    if (m.bmc() != null) {
      bmc =
          new JsonObject()
              .put("protocol", m.bmc().protocol().apiName())
              .put("address", m.bmc().address())
              .put("port", m.bmc().port())
              .put("pinnedSha256", m.bmc().pinnedSha256().isEmpty() ? null : m.bmc().pinnedSha256())
              .put("system", m.bmc().system().isEmpty() ? null : m.bmc().system())
              .put("error", m.bmcError().isEmpty() ? null : m.bmcError())
              .put("presentedSha256", m.presentedSha256().isEmpty() ? null : m.presentedSha256());
    }
    return new JsonObject()
        .put("id", m.id().value())
        .put("hostname", m.hostname())
        .put("macs", new JsonArray(m.macs()))
        .put("bmc", bmc)
        .put("rack", m.rack())
        .put("zone", m.zone())
        .put("tags", new JsonArray(List.copyOf(new TreeSet<>(m.tags()))))
        .put("state", m.state().apiName())
        .put("stateLabel", m.state().label())
        .put("stateReason", m.stateReason())
        .put("stateSince", ApiJson.instant(m.stateSince()))
        .put("stateDeadline", ApiJson.instant(m.stateDeadline()))
        .put("owner", m.owner().isEmpty() ? null : m.owner())
        .put("locked", m.locked())
        .put("node", m.node() == null ? null : m.node().value())
        .put("power", m.power().apiName())
        .put("pending", m.pending().isEmpty() ? null : m.pending())
        .put("created", ApiJson.instant(m.created()));
  }

  private static String required(JsonObject body, String field) {
    String value = ApiRequest.text(body, field, null);
    if (value == null || value.isBlank()) {
      throw ApiProblem.invalidBody("'" + field + "' is required");
    }
    return value.strip();
  }

  private static <T> T param(
      RoutingContext ctx,
      String name,
      java.util.function.Function<String, java.util.Optional<T>> parse,
      String expected) {
    String value = ctx.request().getParam(name);
    if (value == null) {
      return null;
    }
    return parse
        .apply(value)
        .orElseThrow(() -> ApiProblem.invalidParameter(name, "'" + name + "' is " + expected));
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
