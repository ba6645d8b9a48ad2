package io.bulwark.compliance.internal;

import io.bulwark.api.audit.AuditEvent;
import io.bulwark.api.audit.AuditExport;
import io.bulwark.api.audit.AuditLog;
import io.bulwark.api.audit.AuditOutcome;
import io.bulwark.api.audit.AuditUnavailableException;
import io.bulwark.api.compliance.CheckResult;
import io.bulwark.api.compliance.CheckStatus;
import io.bulwark.api.security.Role;
import io.bulwark.web.api.ApiProblem;
import io.bulwark.web.api.ApiRequest;
import io.bulwark.web.api.ApiRoute;
import io.bulwark.web.api.RouteContributor;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Base64;
import java.util.EnumMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.osgi.framework.Bundle;
import org.osgi.framework.FrameworkUtil;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

/**
 * {@code GET /api/v1/compliance}: the STIGs the maps follow (the application's first, then the
 * appliance image's OS), the counts by status and by category (open CAT I, II, III), and every rule
 * with its status, finding details (the evidence) and comments; {@code POST /api/v1/compliance/run}
 * (admins and auditors, audited) runs the checks now; {@code GET /api/v1/compliance/export} (admins
 * and auditors, audited) downloads a STIG Viewer checklist (CKL, CKLB) of every map or the XCCDF
 * results of one, signed with the audit export key.
 */
@Component(service = RouteContributor.class)
public final class ComplianceRoutes implements RouteContributor {
  private final ComplianceEngine engine;
  private final AuditLog audit;
  private final AuditExport exports;
  private final String product;

  @Activate
  public ComplianceRoutes(
      @Reference ComplianceEngine engine,
      @Reference AuditLog audit,
      @Reference AuditExport exports) {
    this.engine = engine;
    this.audit = audit;
    this.exports = exports;
    Bundle bundle = FrameworkUtil.getBundle(ComplianceRoutes.class);
    this.product =
        "cpe:/a:bulwark:bulwark:" + (bundle == null ? "0.0.0" : bundle.getVersion().toString());
  }

  @Override
  public String name() {
    return "compliance";
  }

  @Override
  public List<ApiRoute> routes() {
    return List.of(
        ApiRoute.get("/api/v1/compliance", ApiRoute.ANY_ROLE, this::report),
        ApiRoute.post("/api/v1/compliance/run", Set.of(Role.ADMIN, Role.AUDITOR), this::run),
        ApiRoute.get("/api/v1/compliance/export", Set.of(Role.ADMIN, Role.AUDITOR), this::export));
  }

  private void report(RoutingContext ctx) {
    ApiRequest.json(ctx, report(engine));
  }

  /** The report as the API answers it. */
  static JsonObject report(ComplianceEngine engine) {
    List<ComplianceEngine.Benchmark> benchmarks = engine.benchmarks();
    JsonArray stigs = new JsonArray();
    JsonArray rules = new JsonArray();
    Map<CheckStatus, Integer> total = new EnumMap<>(CheckStatus.class);
    Map<String, Integer> totalOpen = openByCategory();
    for (ComplianceEngine.Benchmark b : benchmarks) {
      RequirementMap.Stig s = b.map().stig();
      Map<CheckStatus, Integer> byStatus = new EnumMap<>(CheckStatus.class);
      Map<String, Integer> open = openByCategory();
      for (ComplianceEngine.RuleStatus r : b.rules()) {
        byStatus.merge(r.status(), 1, Integer::sum);
        total.merge(r.status(), 1, Integer::sum);
        if (r.status() == CheckStatus.OPEN) {
          open.merge(r.rule().category(), 1, Integer::sum);
          totalOpen.merge(r.rule().category(), 1, Integer::sum);
        }
        rules.add(rule(s, r));
      }
      stigs.add(
          stig(s)
              .put("rules", b.rules().size())
              .put("counts", counts(byStatus))
              .put("openByCategory", new JsonObject(new LinkedHashMap<>(open))));
    }
    JsonArray checks = new JsonArray();
    engine
        .checks()
        .forEach((id, c) -> checks.add(new JsonObject().put("id", id).put("title", c.title())));
    return new JsonObject()
        .put("stig", stig(benchmarks.get(0).map().stig()))
        .put("stigs", stigs)
        .put("counts", counts(total))
        .put("openByCategory", new JsonObject(new LinkedHashMap<>(totalOpen)))
        .put("checks", checks)
        .put("rules", rules);
  }

  private static Map<String, Integer> openByCategory() {
    return new TreeMap<>(Map.of("CAT I", 0, "CAT II", 0, "CAT III", 0));
  }

  private static JsonObject counts(Map<CheckStatus, Integer> byStatus) {
    JsonObject counts = new JsonObject();
    for (CheckStatus st : CheckStatus.values()) {
      counts.put(st.ckl(), byStatus.getOrDefault(st, 0));
    }
    return counts;
  }

  private static JsonObject stig(RequirementMap.Stig s) {
    return new JsonObject()
        .put("id", s.id())
        .put("title", s.title())
        .put("version", s.version())
        .put("release", s.release())
        .put("date", s.date());
  }

  private static JsonObject rule(RequirementMap.Stig s, ComplianceEngine.RuleStatus r) {
    RequirementMap.Rule rule = r.rule();
    return new JsonObject()
        .put("benchmark", s.id())
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
        .put("checkedAt", r.ranAt() == null ? null : r.ranAt().toString());
  }

  /**
   * Sends a checklist or results file, signed with the audit export key (the signature in {@code
   * X-Bulwark-Signature}, DER in Base64), after auditing {@code compliance.export} with the format,
   * the benchmarks, the counts and the file's SHA-384.
   */
  private void export(RoutingContext ctx) {
    String format = ctx.request().getParam("format", "ckl").toLowerCase(Locale.ROOT);
    if (!List.of("ckl", "cklb", "xccdf").contains(format)) {
      throw ApiProblem.invalidParameter("format", "format must be ckl, cklb or xccdf");
    }
    List<ComplianceEngine.Benchmark> benchmarks = engine.benchmarks();
    String benchmark = ctx.request().getParam("benchmark", benchmarks.get(0).map().stig().id());
    if (benchmarks.stream().noneMatch(b -> b.map().stig().id().equals(benchmark))) {
      throw ApiProblem.invalidParameter(
          "benchmark",
          "benchmark must be one of " + benchmarks.stream().map(b -> b.map().stig().id()).toList());
    }
    String by = ApiRequest.caller(ctx).name();
    String source = ApiRequest.source(ctx);
    ctx.vertx()
        .executeBlocking(
            () -> {
              Instant now = Instant.now();
              Asset asset = Asset.local();
              Checklists files = new Checklists(benchmarks, asset, now, product);
              byte[] body =
                  switch (format) {
                    case "ckl" -> files.ckl();
                    case "cklb" -> files.cklb();
                    default -> files.xccdf(benchmark, by);
                  };
              String name =
                  "bulwark-"
                      + asset.hostName()
                      + "-"
                      + (format.equals("xccdf") ? benchmark : "stigs")
                      + "-"
                      + now.truncatedTo(ChronoUnit.SECONDS).toString().replace(":", "")
                      + (format.equals("xccdf") ? "-xccdf.xml" : "." + format);
              Map<String, String> details = new TreeMap<>();
              details.put("format", format);
              details.put("file", name);
              details.put("bytes", String.valueOf(body.length));
              details.put("sha384", HexFormat.of().formatHex(sha384(body)));
              details.put(
                  "benchmarks",
                  format.equals("xccdf")
                      ? benchmark
                      : String.join(
                          ",", benchmarks.stream().map(b -> b.map().stig().id()).toList()));
              ComplianceEngine.Benchmark asd = benchmarks.get(0);
              for (CheckStatus st : CheckStatus.values()) {
                details.put(
                    st.ckl(),
                    String.valueOf(asd.rules().stream().filter(r -> r.status() == st).count()));
              }
              try {
                audit.append(
                    new AuditEvent(
                        by, source, "compliance.export", name, AuditOutcome.SUCCESS, details));
              } catch (AuditUnavailableException e) {
                throw ApiProblem.auditUnavailable("refused: the audit log cannot record it");
              }
              return new Signed(name, body, exports.sign(body));
            },
            false)
        .onSuccess(
            signed ->
                ctx.response()
                    .putHeader("Content-Type", Checklists.mediaType(format) + "; charset=utf-8")
                    .putHeader(
                        "Content-Disposition", "attachment; filename=\"" + signed.name() + "\"")
                    .putHeader("X-Bulwark-Signature-Algorithm", "SHA384withECDSA")
                    .putHeader(
                        "X-Bulwark-Signature",
                        Base64.getEncoder().encodeToString(signed.signature()))
                    .putHeader(
                        "Link",
                        "</api/v1/audit/public-key>; rel=\"signing-key\","
                            + " </api/v1/audit/export>; rel=\"related\"; title=\"audit log\"")
                    .end(Buffer.buffer(signed.body())))
        .onFailure(ctx::fail);
  }

  private record Signed(String name, byte[] body, byte[] signature) {}

  private static byte[] sha384(byte[] body) {
    try {
      return MessageDigest.getInstance("SHA-384").digest(body);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("no SHA-384 provider", e);
    }
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
