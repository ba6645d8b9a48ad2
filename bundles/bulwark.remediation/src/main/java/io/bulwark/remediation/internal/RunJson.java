package io.bulwark.remediation.internal;

import io.bulwark.api.fleet.NodeId;
import io.bulwark.api.health.Severity;
import io.bulwark.api.machine.MachineId;
import io.bulwark.api.remediation.Guardrails;
import io.bulwark.api.remediation.Policy;
import io.bulwark.api.remediation.PolicyMode;
import io.bulwark.api.remediation.PolicyStep;
import io.bulwark.api.remediation.Run;
import io.bulwark.api.remediation.RunState;
import io.bulwark.api.remediation.StepRecord;
import io.bulwark.api.remediation.StepStatus;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Runs, policies and guardrails as JSON: the API's answers, what the store keeps, and what an admin
 * sends to change a policy. Reading checks every field and names the one that is wrong.
 */
final class RunJson {
  private RunJson() {}

  // ---- runs ----

  static JsonObject run(Run r) {
    JsonArray steps = new JsonArray();
    for (StepRecord s : r.steps()) {
      steps.add(stepRecord(s));
    }
    return new JsonObject()
        .put("id", r.id())
        .put("node", r.node().value())
        .put("hostname", r.hostname())
        .put("machine", r.machine() == null ? null : r.machine().value())
        .put("findingId", r.findingId())
        .put("findingKind", r.findingKind())
        .put("findingSummary", r.findingSummary())
        .put("policy", r.policyId())
        .put("policyVersion", r.policyVersion())
        .put("mode", r.mode().apiName())
        .put("state", r.state().apiName())
        .put("current", r.current())
        .put("steps", steps)
        .put("held", r.held())
        .put("startedBy", r.startedBy())
        .put("created", r.created().toString())
        .put("updated", r.updated().toString())
        .put("nextCheck", r.nextCheck() == null ? null : r.nextCheck().toString())
        .put("approvedBy", r.approvedBy())
        .put(
            "approvalKillsJobs",
            r.state() == RunState.AWAITING_APPROVAL
                && r.currentStep() != null
                && RemediationEngine.KILLS_JOBS.equals(
                    r.currentStep().evidence().get(RemediationEngine.APPROVAL)));
  }

  static Run run(JsonObject j) {
    List<StepRecord> steps = new ArrayList<>();
    for (Object o : j.getJsonArray("steps", new JsonArray())) {
      steps.add(stepRecord((JsonObject) o));
    }
    String machine = j.getString("machine");
    return new Run(
        j.getString("id"),
        new NodeId(j.getString("node")),
        j.getString("hostname"),
        machine == null ? null : new MachineId(machine),
        j.getString("findingId"),
        j.getString("findingKind"),
        j.getString("findingSummary"),
        j.getString("policy"),
        j.getInteger("policyVersion", 1),
        mode(j.getString("mode")),
        RunState.valueOf(enumName(j.getString("state"))),
        j.getInteger("current", 0),
        steps,
        j.getString("held"),
        j.getString("startedBy"),
        Instant.parse(j.getString("created")),
        Instant.parse(j.getString("updated")),
        instant(j.getString("nextCheck")),
        j.getString("approvedBy"));
  }

  static JsonObject stepRecord(StepRecord s) {
    return new JsonObject()
        .put("step", s.step().step())
        .put("parameters", strings(s.step().parameters()))
        .put("optional", s.step().optional())
        .put("status", s.status().apiName())
        .put("started", s.started() == null ? null : s.started().toString())
        .put("ended", s.ended() == null ? null : s.ended().toString())
        .put("attempts", s.attempts())
        .put("detail", s.detail())
        .put("memo", strings(s.memo()))
        .put("evidence", strings(s.evidence()));
  }

  static StepRecord stepRecord(JsonObject j) {
    return new StepRecord(
        new PolicyStep(
            j.getString("step"),
            strings(j.getJsonObject("parameters")),
            j.getBoolean("optional", false)),
        StepStatus.valueOf(enumName(j.getString("status"))),
        instant(j.getString("started")),
        instant(j.getString("ended")),
        j.getInteger("attempts", 0),
        j.getString("detail"),
        strings(j.getJsonObject("memo")),
        strings(j.getJsonObject("evidence")));
  }

  // ---- policies ----

  static JsonObject policy(Policy p) {
    return new JsonObject()
        .put("id", p.id())
        .put("name", p.name())
        .put("description", p.description())
        .put("kinds", new JsonArray(new ArrayList<>(new TreeSet<>(p.kinds()))))
        .put("minSeverity", p.minSeverity().name().toLowerCase(Locale.ROOT))
        .put("xids", new JsonArray(new ArrayList<>(new TreeSet<>(p.xids()))))
        .put("steps", steps(p.steps()))
        .put("recurrenceSteps", steps(p.recurrenceSteps()))
        .put("mode", p.mode().apiName())
        .put("enabled", p.enabled())
        .put("priority", p.priority())
        .put("version", p.version())
        .put("updatedBy", p.updatedBy())
        .put("updatedAt", p.updatedAt().toString());
  }

  private static JsonArray steps(List<PolicyStep> steps) {
    JsonArray a = new JsonArray();
    for (PolicyStep s : steps) {
      JsonObject o = new JsonObject().put("step", s.step());
      if (!s.parameters().isEmpty()) {
        o.put("parameters", strings(s.parameters()));
      }
      if (s.optional()) {
        o.put("optional", true);
      }
      a.add(o);
    }
    return a;
  }

  /**
   * Reads a policy as an admin sends it (or as it is stored). {@code id} is the id of the path when
   * it is given; the version, author and time are set by the caller.
   *
   * @throws IllegalArgumentException naming the field that is wrong
   */
  static Policy policy(JsonObject j, String id, int version, String by, Instant at) {
    String pid = id != null ? id : text(j, "id", null);
    Set<String> kinds = new TreeSet<>();
    for (Object k : array(j, "kinds")) {
      if (!(k instanceof String s) || s.isBlank()) {
        throw new IllegalArgumentException("'kinds' must be a list of finding kinds");
      }
      kinds.add(s.strip());
    }
    Set<Integer> xids = new TreeSet<>();
    JsonArray xa = j.getValue("xids") == null ? new JsonArray() : array(j, "xids");
    for (Object x : xa) {
      if (!(x instanceof Number n) || n.intValue() < 1 || n.doubleValue() != n.intValue()) {
        throw new IllegalArgumentException("'xids' must be a list of XID numbers (1 or more)");
      }
      xids.add(n.intValue());
    }
    String severity = text(j, "minSeverity", "warning");
    Severity min;
    try {
      min = Severity.valueOf(severity.strip().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "'minSeverity' is info, warning or critical, not '" + severity + "'");
    }
    String modeText = text(j, "mode", "dry-run");
    PolicyMode mode =
        PolicyMode.parse(modeText)
            .orElseThrow(
                () ->
                    new IllegalArgumentException(
                        "'mode' is automatic, approve-destructive or dry-run, not '"
                            + modeText
                            + "'"));
    Object enabled = j.getValue("enabled", Boolean.TRUE);
    if (!(enabled instanceof Boolean)) {
      throw new IllegalArgumentException("'enabled' must be true or false");
    }
    Object priority = j.getValue("priority", 0);
    if (!(priority instanceof Number pn) || pn.doubleValue() != pn.intValue()) {
      throw new IllegalArgumentException("'priority' must be a whole number");
    }
    return new Policy(
        pid,
        text(j, "name", pid),
        text(j, "description", ""),
        kinds,
        min,
        xids,
        steps(j, "steps", true),
        steps(j, "recurrenceSteps", false),
        mode,
        (Boolean) enabled,
        ((Number) priority).intValue(),
        version,
        by,
        at);
  }

  private static List<PolicyStep> steps(JsonObject j, String field, boolean required) {
    Object v = j.getValue(field);
    if (v == null && !required) {
      return List.of();
    }
    List<PolicyStep> out = new ArrayList<>();
    int i = 0;
    for (Object o : array(j, field)) {
      i++;
      if (o instanceof String s) {
        out.add(PolicyStep.of(s.strip()));
        continue;
      }
      if (!(o instanceof JsonObject so)) {
        throw new IllegalArgumentException(
            "'" + field + "' entry " + i + " must be a step name or {\"step\": …}");
      }
      Object params = so.getValue("parameters");
      Map<String, String> p = new LinkedHashMap<>();
      if (params != null) {
        if (!(params instanceof JsonObject po)) {
          throw new IllegalArgumentException(
              "'" + field + "' entry " + i + ": 'parameters' must be an object");
        }
        for (String k : po.fieldNames()) {
          Object pv = po.getValue(k);
          if (!(pv instanceof String || pv instanceof Number || pv instanceof Boolean)) {
            throw new IllegalArgumentException(
                "'" + field + "' entry " + i + ": parameter " + k + " must be text or a number");
          }
          p.put(k, String.valueOf(pv));
        }
      }
      Object optional = so.getValue("optional", Boolean.FALSE);
      if (!(optional instanceof Boolean)) {
        throw new IllegalArgumentException(
            "'" + field + "' entry " + i + ": 'optional' must be true or false");
      }
      out.add(new PolicyStep(text(so, "step", null), p, (Boolean) optional));
    }
    return out;
  }

  // ---- guardrails ----

  static JsonObject guardrails(Guardrails g) {
    JsonArray windows = new JsonArray();
    for (Guardrails.Window w : g.windows()) {
      windows.add(
          new JsonObject().put("start", w.start().toString()).put("end", w.end().toString()));
    }
    return new JsonObject()
        .put("maxIsolatedPercent", g.maxIsolatedPercent())
        .put("maxIsolatedPerRack", g.maxIsolatedPerRack())
        .put("minAvailablePerPool", g.minAvailablePerPool())
        .put("flapRuns", g.flapRuns())
        .put("flapWindowMinutes", g.flapWindowMinutes())
        .put("cooldownMinutes", g.cooldownMinutes())
        .put("breakerFailures", g.breakerFailures())
        .put("windows", windows)
        .put("killSwitch", g.killSwitch())
        .put("breakerOpen", g.breakerOpen())
        .put("failuresInARow", g.failuresInARow());
  }

  /** Reads limits; fields left out keep their value in {@code base}. */
  static Guardrails guardrails(JsonObject j, Guardrails base) {
    List<Guardrails.Window> windows = base.windows();
    if (j.getValue("windows") != null) {
      windows = new ArrayList<>();
      for (Object o : array(j, "windows")) {
        if (!(o instanceof JsonObject w)) {
          throw new IllegalArgumentException(
              "'windows' entries are {\"start\":\"22:00\",\"end\":\"06:00\"}");
        }
        try {
          windows.add(
              new Guardrails.Window(
                  LocalTime.parse(text(w, "start", null)), LocalTime.parse(text(w, "end", null))));
        } catch (java.time.format.DateTimeParseException e) {
          throw new IllegalArgumentException(
              "a window's start and end are times of day like 22:00, not '"
                  + e.getParsedString()
                  + "'");
        }
      }
    }
    return new Guardrails(
        number(j, "maxIsolatedPercent", base.maxIsolatedPercent()),
        number(j, "maxIsolatedPerRack", base.maxIsolatedPerRack()),
        number(j, "minAvailablePerPool", base.minAvailablePerPool()),
        number(j, "flapRuns", base.flapRuns()),
        number(j, "flapWindowMinutes", base.flapWindowMinutes()),
        number(j, "cooldownMinutes", base.cooldownMinutes()),
        number(j, "breakerFailures", base.breakerFailures()),
        windows,
        j.getBoolean("killSwitch", base.killSwitch()),
        j.getBoolean("breakerOpen", base.breakerOpen()),
        j.getInteger("failuresInARow", base.failuresInARow()));
  }

  // ---- helpers ----

  private static int number(JsonObject j, String field, int fallback) {
    Object v = j.getValue(field);
    if (v == null) {
      return fallback;
    }
    if (!(v instanceof Number n) || n.doubleValue() != n.intValue()) {
      throw new IllegalArgumentException("'" + field + "' must be a whole number");
    }
    return n.intValue();
  }

  private static String text(JsonObject j, String field, String fallback) {
    Object v = j.getValue(field);
    if (v == null) {
      if (fallback == null) {
        throw new IllegalArgumentException("'" + field + "' is required");
      }
      return fallback;
    }
    if (!(v instanceof String s)) {
      throw new IllegalArgumentException("'" + field + "' must be a string");
    }
    return s;
  }

  private static JsonArray array(JsonObject j, String field) {
    Object v = j.getValue(field);
    if (!(v instanceof JsonArray a)) {
      throw new IllegalArgumentException("'" + field + "' must be a list");
    }
    return a;
  }

  private static JsonObject strings(Map<String, String> m) {
    JsonObject o = new JsonObject();
    new TreeMap<>(m).forEach(o::put);
    return o;
  }

  private static Map<String, String> strings(JsonObject o) {
    Map<String, String> m = new LinkedHashMap<>();
    if (o != null) {
      for (String k : o.fieldNames()) {
        Object v = o.getValue(k);
        m.put(k, v == null ? "" : String.valueOf(v));
      }
    }
    return m;
  }

  private static Instant instant(String s) {
    return s == null ? null : Instant.parse(s);
  }

  private static PolicyMode mode(String s) {
    return PolicyMode.parse(s).orElse(PolicyMode.DRY_RUN);
  }

  static String enumName(String apiName) {
    return apiName.toUpperCase(Locale.ROOT).replace('-', '_');
  }
}
