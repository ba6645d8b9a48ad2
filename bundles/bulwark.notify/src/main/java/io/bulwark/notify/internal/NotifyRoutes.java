package io.bulwark.notify.internal;

import io.bulwark.api.audit.AuditEvent;
import io.bulwark.api.audit.AuditLog;
import io.bulwark.api.audit.AuditOutcome;
import io.bulwark.api.health.FindingKind;
import io.bulwark.api.health.Severity;
import io.bulwark.api.security.Principal;
import io.bulwark.api.security.Role;
import io.bulwark.notify.api.ChannelSetting;
import io.bulwark.notify.api.ChannelType;
import io.bulwark.notify.api.DeliveryException;
import io.bulwark.web.api.ApiProblem;
import io.bulwark.web.api.ApiRequest;
import io.bulwark.web.api.ApiRoute;
import io.bulwark.web.api.RouteContributor;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

/**
 * The notification channels in the JSON API: {@code GET /api/v1/notify/types} (what can be
 * configured), {@code GET /api/v1/notify/channels} (each channel with its delivery state), {@code
 * PUT} and {@code DELETE /api/v1/notify/channels/:channel} (admins), and {@code POST
 * /api/v1/notify/channels/:channel/test} (admins and operators: sends a test notification at once
 * and answers the receiver's verdict). A channel's credential is write-only: it goes to the sealed
 * secret store and is never answered. Every change and test is audited.
 */
@Component(service = RouteContributor.class)
public final class NotifyRoutes implements RouteContributor {
  private static final int TEST_TIMEOUT_SECONDS = 30;

  private final Notifier notifier;
  private final AuditLog audit;
  private final Clock clock;

  @Activate
  public NotifyRoutes(@Reference Notifier notifier, @Reference AuditLog audit) {
    this(notifier, audit, Clock.systemUTC());
  }

  NotifyRoutes(Notifier notifier, AuditLog audit, Clock clock) {
    this.notifier = notifier;
    this.audit = audit;
    this.clock = clock;
  }

  @Override
  public String name() {
    return "notifications";
  }

  @Override
  public List<ApiRoute> routes() {
    Set<Role> admin = Set.of(Role.ADMIN);
    Set<Role> operators = Set.of(Role.ADMIN, Role.OPERATOR);
    return List.of(
        ApiRoute.get("/api/v1/notify/types", operators, this::types),
        ApiRoute.get("/api/v1/notify/channels", ApiRoute.ANY_ROLE, this::list),
        ApiRoute.put("/api/v1/notify/channels/:channel", admin, this::save),
        ApiRoute.delete("/api/v1/notify/channels/:channel", admin, this::delete),
        ApiRoute.post("/api/v1/notify/channels/:channel/test", operators, this::test));
  }

  void types(RoutingContext ctx) {
    JsonArray types = new JsonArray();
    for (ChannelType t : notifier.types().values()) {
      JsonArray settings = new JsonArray();
      for (ChannelSetting s : t.settings()) {
        settings.add(
            new JsonObject()
                .put("key", s.key())
                .put("description", s.description())
                .put("required", s.required())
                .put("default", s.defaultValue()));
      }
      types.add(new JsonObject().put("type", t.type()).put("settings", settings));
    }
    ApiRequest.json(ctx, new JsonObject().put("types", types));
  }

  void list(RoutingContext ctx) {
    JsonArray channels = new JsonArray();
    for (Notifier.View v : notifier.views()) {
      channels.add(json(v));
    }
    ApiRequest.json(ctx, new JsonObject().put("channels", channels));
  }

  void save(RoutingContext ctx) {
    String name = channelName(ctx);
    JsonObject body = ApiRequest.body(ctx);
    Principal caller = ApiRequest.caller(ctx);
    ChannelDefinition definition;
    byte[] credential = null;
    try {
      definition = definition(name, body, caller);
      Object c = body.getValue("credential");
      if (c != null && !(c instanceof String)) {
        throw ApiProblem.invalidBody("'credential' must be a string (empty removes it)");
      }
      if (c != null) {
        credential = ((String) c).getBytes(StandardCharsets.UTF_8);
      }
    } catch (IllegalArgumentException e) {
      throw ApiProblem.invalidBody(e.getMessage());
    }
    boolean existed = notifier.channels().containsKey(name);
    Map<String, String> details = new TreeMap<>();
    details.put("type", definition.type());
    details.put("enabled", Boolean.toString(definition.enabled()));
    details.put("minSeverity", definition.route().minSeverity().name());
    details.put(
        "credential", credential == null ? "kept" : credential.length == 0 ? "removed" : "set");
    details.put("settings", String.join(",", new TreeMap<>(definition.settings()).keySet()));
    try {
      try {
        notifier.check(definition, credential);
      } catch (IllegalArgumentException e) {
        record(ctx, "notify.channel.save", name, AuditOutcome.FAILURE, withReason(details, e));
        throw ApiProblem.invalidBody(e.getMessage());
      } catch (IllegalStateException e) {
        record(ctx, "notify.channel.save", name, AuditOutcome.FAILURE, withReason(details, e));
        throw ApiProblem.conflict(e.getMessage());
      }
      // Audited before it is made: a change the audit log cannot record is not made.
      record(ctx, "notify.channel.save", name, AuditOutcome.SUCCESS, details);
      notifier.store(definition, credential);
    } finally {
      if (credential != null) {
        Arrays.fill(credential, (byte) 0);
      }
    }
    Notifier.View view =
        notifier.views().stream()
            .filter(v -> v.channel().name().equals(name))
            .findFirst()
            .orElseThrow();
    ApiRequest.json(ctx, existed ? 200 : 201, json(view));
  }

  void delete(RoutingContext ctx) {
    String name = channelName(ctx);
    if (!notifier.channels().containsKey(name)) {
      throw ApiProblem.notFound("There is no notification channel '" + name + "'.");
    }
    record(ctx, "notify.channel.delete", name, AuditOutcome.SUCCESS, Map.of());
    notifier.delete(name);
    ctx.response().setStatusCode(204).end();
  }

  void test(RoutingContext ctx) {
    String name = channelName(ctx);
    if (!notifier.channels().containsKey(name)) {
      throw ApiProblem.notFound("There is no notification channel '" + name + "'.");
    }
    Principal caller = ApiRequest.caller(ctx);
    JsonObject answer = new JsonObject().put("channel", name);
    try {
      long millis = notifier.test(name, caller.name()).get(TEST_TIMEOUT_SECONDS, TimeUnit.SECONDS);
      answer.put("delivered", true).put("millis", millis);
    } catch (IllegalStateException e) {
      answer.put("delivered", false).put("error", e.getMessage());
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      answer
          .put("delivered", false)
          .put(
              "error",
              cause instanceof DeliveryException ? cause.getMessage() : String.valueOf(cause));
    } catch (TimeoutException e) {
      answer
          .put("delivered", false)
          .put(
              "error",
              "no answer within " + TEST_TIMEOUT_SECONDS + " s; the test may still arrive");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw ApiProblem.unavailable("the test was interrupted");
    }
    Map<String, String> details = new TreeMap<>();
    if (!answer.getBoolean("delivered")) {
      details.put("error", answer.getString("error"));
    }
    record(
        ctx,
        "notify.channel.test",
        name,
        answer.getBoolean("delivered") ? AuditOutcome.SUCCESS : AuditOutcome.FAILURE,
        details);
    ApiRequest.json(ctx, answer);
  }

  private static Map<String, String> withReason(Map<String, String> details, RuntimeException e) {
    Map<String, String> d = new TreeMap<>(details);
    d.put("reason", String.valueOf(e.getMessage()));
    return d;
  }

  private void record(
      RoutingContext ctx,
      String action,
      String target,
      AuditOutcome outcome,
      Map<String, String> d) {
    Principal caller = ApiRequest.caller(ctx);
    audit.append(new AuditEvent(caller.name(), ApiRequest.source(ctx), action, target, outcome, d));
  }

  private static String channelName(RoutingContext ctx) {
    String name = ctx.pathParam("channel");
    if (name == null || !ChannelDefinition.NAME.matcher(name).matches()) {
      throw ApiProblem.invalidParameter(
          "channel", "a channel's name is 1-32 of a-z, 0-9 and '-', starting with a letter");
    }
    return name;
  }

  private ChannelDefinition definition(String name, JsonObject body, Principal caller) {
    String type = ApiRequest.text(body, "type", null);
    if (type == null || type.isBlank()) {
      throw ApiProblem.invalidBody("'type' is required: one of " + notifier.types().keySet());
    }
    Object enabledValue = body.getValue("enabled", true);
    if (!(enabledValue instanceof Boolean enabled)) {
      throw ApiProblem.invalidBody("'enabled' must be true or false");
    }
    Map<String, String> settings = new LinkedHashMap<>();
    Object s = body.getValue("settings", new JsonObject());
    if (!(s instanceof JsonObject so)) {
      throw ApiProblem.invalidBody("'settings' must be an object of strings");
    }
    for (Map.Entry<String, Object> e : so) {
      Object v = e.getValue();
      if (v instanceof String || v instanceof Number || v instanceof Boolean) {
        settings.put(e.getKey(), String.valueOf(v));
      } else if (v != null) {
        throw ApiProblem.invalidBody("the setting '" + e.getKey() + "' must be a string");
      }
    }
    for (String k : settings.keySet()) {
      if (k.toLowerCase(Locale.ROOT).contains("password")
          || k.toLowerCase(Locale.ROOT).contains("token")) {
        throw ApiProblem.invalidBody(
            "the setting '"
                + k
                + "' looks like a secret: send it as 'credential', which is kept"
                + " sealed");
      }
    }
    return new ChannelDefinition(
        name,
        type.trim(),
        settings,
        route(body.getValue("route", new JsonObject())),
        enabled,
        false,
        caller.name(),
        clock.instant());
  }

  private static Route route(Object value) {
    if (!(value instanceof JsonObject r)) {
      throw ApiProblem.invalidBody("'route' must be an object");
    }
    Severity min;
    String minText = ApiRequest.text(r, "minSeverity", "warning");
    try {
      min = Severity.valueOf(minText.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw ApiProblem.invalidBody(
          "'route.minSeverity' must be info, warning or critical, not '" + minText + "'");
    }
    Set<String> kinds = new LinkedHashSet<>();
    Object k = r.getValue("kinds", new JsonArray());
    if (!(k instanceof JsonArray ka)) {
      throw ApiProblem.invalidBody("'route.kinds' must be a list of finding kinds");
    }
    for (Object kind : ka) {
      if (!(kind instanceof String ks) || !FindingKind.isValid(ks)) {
        throw ApiProblem.invalidBody("'route.kinds' holds '" + kind + "', not a finding kind");
      }
      kinds.add(ks);
    }
    Map<String, Set<String>> labels = new LinkedHashMap<>();
    Object l = r.getValue("labels", new JsonObject());
    if (!(l instanceof JsonObject lo)) {
      throw ApiProblem.invalidBody(
          "'route.labels' must be an object of label to value ('a1|a2' for either)");
    }
    for (Map.Entry<String, Object> e : lo) {
      if (!(e.getValue() instanceof String v) || v.isBlank()) {
        throw ApiProblem.invalidBody("'route.labels." + e.getKey() + "' must be a value");
      }
      labels.put(e.getKey(), new LinkedHashSet<>(List.of(v.split("\\|"))));
    }
    Object resolved = r.getValue("sendResolved", true);
    if (!(resolved instanceof Boolean sendResolved)) {
      throw ApiProblem.invalidBody("'route.sendResolved' must be true or false");
    }
    return new Route(min, kinds, labels, sendResolved);
  }

  private static JsonObject json(Notifier.View v) {
    ChannelDefinition c = v.channel();
    JsonObject labels = new JsonObject();
    new TreeMap<>(c.route().labels()).forEach((k, vals) -> labels.put(k, String.join("|", vals)));
    JsonObject route =
        new JsonObject()
            .put("minSeverity", c.route().minSeverity().name().toLowerCase(Locale.ROOT))
            .put("kinds", new JsonArray(List.copyOf(new java.util.TreeSet<>(c.route().kinds()))))
            .put("labels", labels)
            .put("sendResolved", c.route().sendResolved());
    ChannelStatus.Snapshot s = v.status();
    JsonObject delivery =
        new JsonObject()
            .put("delivering", v.delivering())
            .put("problem", v.problem())
            .put("waiting", v.waiting())
            .put("oldestWaiting", text(v.oldestWaiting()))
            .put("delivered", s.delivered())
            .put("rejected", s.rejected())
            .put("dropped", v.dropped())
            .put("consecutiveFailures", s.consecutiveFailures())
            .put("lastSuccess", text(s.lastSuccess()))
            .put("lastFailure", text(s.lastFailure()))
            .put("lastError", s.lastError())
            .put("nextAttempt", text(v.nextAttempt()));
    return new JsonObject()
        .put("name", c.name())
        .put("type", c.type())
        .put("enabled", c.enabled())
        .put("settings", new JsonObject(new TreeMap<>(c.settings())))
        .put("credential", c.hasCredential())
        .put("route", route)
        .put("updatedBy", c.updatedBy())
        .put("updatedAt", c.updatedAt().toString())
        .put("delivery", delivery);
  }

  private static String text(Instant at) {
    return at == null ? null : at.toString();
  }
}
