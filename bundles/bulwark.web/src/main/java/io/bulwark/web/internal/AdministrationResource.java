package io.bulwark.web.internal;

import io.bulwark.api.audit.AuditEvent;
import io.bulwark.api.audit.AuditOutcome;
import io.bulwark.api.audit.AuditUnavailableException;
import io.bulwark.api.audit.AuditVerification;
import io.bulwark.api.audit.ExportFormat;
import io.bulwark.api.security.Role;
import io.bulwark.api.security.UserAccount;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Base64;
import java.util.Locale;
import java.util.Map;

/**
 * The admin plane's administration routes: local users ({@code /api/v1/users}, with unlock), the
 * TLS certificate ({@code /api/v1/tls/certificate}) and the audit log's signed export, public key
 * and chain check ({@code /api/v1/audit/export|public-key|verify}). Every change is audited by the
 * service that makes it, or here.
 */
final class AdministrationResource {
  private final AdminServices services;

  AdministrationResource(AdminServices services) {
    this.services = services;
  }

  void users(RoutingContext ctx) {
    JsonArray out = new JsonArray();
    for (UserAccount u : services.users().users()) {
      out.add(describe(u));
    }
    ApiJson.send(ctx, new JsonObject().put("users", out));
  }

  /**
   * {@code POST /api/v1/users/{name}/unlock}: lifts a lockout and forgets the failed logins that
   * counted towards it. Audited as {@code user.unlock} before it takes effect.
   */
  void unlockUser(RoutingContext ctx) {
    String name = ctx.pathParam("name");
    try {
      UserAccount unlocked =
          services
              .accounts()
              .unlockUser(AccessControl.principal(ctx).name(), name, AccessControl.source(ctx))
              .orElseThrow(() -> ApiProblem.notFound("no user " + name));
      ApiJson.send(ctx, describe(unlocked));
    } catch (AuditUnavailableException e) {
      throw ApiProblem.auditUnavailable(
          "the user was not unlocked: the audit log cannot record it");
    }
  }

  private JsonObject describe(UserAccount u) {
    boolean locked = u.lockedAt(services.clock().instant());
    return new JsonObject()
        .put("name", u.name())
        .put("role", u.role().name().toLowerCase(Locale.ROOT))
        .put("mustChangePassword", u.mustChangePassword())
        .put("locked", locked)
        .put("lockedUntil", locked ? u.lockedUntil().toString() : null)
        .put("disabled", u.disabled());
  }

  void createUser(RoutingContext ctx) {
    JsonObject body = SessionResource.body(ctx);
    String name = SessionResource.text(body, "name", "");
    Role role = role(body.getValue("role"));
    Object password = body.getValue("password");
    if (!(password instanceof String p)) {
      throw ApiProblem.invalidBody("'password' (the initial password) must be a string");
    }
    char[] initial = p.toCharArray();
    try {
      services
          .accounts()
          .createUser(
              AccessControl.principal(ctx).name(), name, role, initial, AccessControl.source(ctx));
      ctx.response().setStatusCode(201);
      ApiJson.send(
          ctx,
          new JsonObject().put("name", name).put("role", role.name().toLowerCase(Locale.ROOT)));
    } catch (IllegalArgumentException e) {
      throw ApiProblem.invalidBody(e.getMessage());
    } catch (IllegalStateException e) {
      throw ApiProblem.conflict(e.getMessage());
    } catch (AuditUnavailableException e) {
      throw ApiProblem.auditUnavailable("the user was not created: the audit log cannot record it");
    } finally {
      Arrays.fill(initial, '\0');
    }
  }

  void deleteUser(RoutingContext ctx) {
    try {
      boolean deleted =
          services
              .accounts()
              .deleteUser(
                  AccessControl.principal(ctx).name(),
                  ctx.pathParam("name"),
                  AccessControl.source(ctx));
      if (!deleted) {
        throw ApiProblem.notFound("no user " + ctx.pathParam("name"));
      }
      ctx.response().setStatusCode(204).end();
    } catch (IllegalStateException e) {
      throw ApiProblem.conflict(e.getMessage());
    } catch (AuditUnavailableException e) {
      throw ApiProblem.auditUnavailable("the user was not deleted: the audit log cannot record it");
    }
  }

  void certificate(RoutingContext ctx) {
    var cert = services.tls().certificate();
    ApiJson.send(
        ctx,
        new JsonObject()
            .put("subject", cert.getSubjectX500Principal().getName())
            .put("issuer", cert.getIssuerX500Principal().getName())
            .put("serialNumber", cert.getSerialNumber().toString(16))
            .put("notBefore", cert.getNotBefore().toInstant().toString())
            .put("notAfter", cert.getNotAfter().toInstant().toString())
            .put("sha256", CertificateFingerprint.sha256(cert))
            .put("chainLength", services.tls().certificateChain().size()));
  }

  void importCertificate(RoutingContext ctx) {
    JsonObject body = SessionResource.body(ctx);
    String chain = SessionResource.text(body, "chainPem", null);
    String key = SessionResource.text(body, "keyPem", null);
    if (chain == null || key == null) {
      throw ApiProblem.invalidBody("send 'chainPem' and 'keyPem'");
    }
    char[] keyPem = key.toCharArray();
    String actor = AccessControl.principal(ctx).name();
    try {
      services.tls().importPem(chain, keyPem);
      audit(ctx, actor, "tls.import", AuditOutcome.SUCCESS, "the admin certificate was replaced");
      certificate(ctx);
    } catch (IllegalArgumentException e) {
      audit(ctx, actor, "tls.import", AuditOutcome.FAILURE, e.getMessage());
      throw ApiProblem.invalidBody(e.getMessage());
    } finally {
      Arrays.fill(keyPem, '\0');
    }
  }

  void export(RoutingContext ctx) {
    String format = ctx.request().getParam("format", "jsonl");
    ExportFormat f;
    try {
      f = ExportFormat.valueOf(format.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw ApiProblem.invalidParameter("format", "format must be jsonl or csv");
    }
    audit(ctx, AccessControl.principal(ctx).name(), "audit.export", AuditOutcome.SUCCESS, f.name());
    try {
      Path folder = Files.createTempDirectory("bulwark-audit-export");
      Path file = services.auditExport().exportTo(f, folder);
      byte[] signature = Files.readAllBytes(file.resolveSibling(file.getFileName() + ".sig"));
      ctx.response()
          .putHeader("Content-Type", f == ExportFormat.CSV ? "text/csv" : "application/jsonl")
          .putHeader("Content-Disposition", "attachment; filename=\"" + file.getFileName() + "\"")
          .putHeader("X-Bulwark-Signature-Algorithm", "SHA384withECDSA")
          .putHeader("X-Bulwark-Signature", Base64.getEncoder().encodeToString(signature))
          .sendFile(file.toString())
          .onComplete(done -> deleteQuietly(folder));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot stage the audit export: " + e.getMessage(), e);
    }
  }

  void publicKey(RoutingContext ctx) {
    ctx.response()
        .putHeader("Content-Type", "application/x-pem-file")
        .end(services.auditExport().publicKeyPem());
  }

  void verify(RoutingContext ctx) {
    AuditVerification v = services.audit().verify();
    ApiJson.send(
        ctx,
        new JsonObject()
            .put("intact", v.intact())
            .put("recordsChecked", v.recordsChecked())
            .put("firstBadSequence", v.firstBadSequence())
            .put("problem", v.problem()));
  }

  private void audit(
      RoutingContext ctx, String actor, String action, AuditOutcome outcome, String what) {
    try {
      services
          .audit()
          .append(
              new AuditEvent(
                  actor, AccessControl.source(ctx), action, "", outcome, Map.of("detail", what)));
    } catch (AuditUnavailableException e) {
      throw ApiProblem.auditUnavailable("refused: the audit log cannot record it");
    }
  }

  private static Role role(Object value) {
    try {
      return Role.valueOf(String.valueOf(value).toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw ApiProblem.invalidBody("'role' must be admin, operator or auditor");
    }
  }

  private static void deleteQuietly(Path folder) {
    try (var files = Files.walk(folder)) {
      for (Path p : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    } catch (IOException e) {
      System.getLogger(AdministrationResource.class.getName())
          .log(
              System.Logger.Level.WARNING,
              "could not remove the staged export " + folder + ": " + e);
    }
  }
}
