package io.bulwark.web.internal;

import io.bulwark.api.audit.AuditEvent;
import io.bulwark.api.audit.AuditExport;
import io.bulwark.api.audit.AuditLog;
import io.bulwark.api.audit.AuditOutcome;
import io.bulwark.api.audit.AuditUnavailableException;
import io.bulwark.api.audit.AuditVerification;
import io.bulwark.api.audit.ExportFormat;
import io.bulwark.web.api.ApiProblem;
import io.bulwark.web.api.ApiRequest;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Locale;
import java.util.Map;

/**
 * {@code /api/v1/audit/export|public-key|verify}: the audit log's signed export (JSON Lines or CSV,
 * the signature in {@code X-Bulwark-Signature}), the key that checks it, and the check of the chain
 * on the appliance. An export is audited as {@code audit.export} before it is sent.
 */
final class AuditExportResource {
  private final AuditLog auditLog;
  private final AuditExport exports;

  AuditExportResource(AuditLog auditLog, AuditExport exports) {
    this.auditLog = auditLog;
    this.exports = exports;
  }

  void export(RoutingContext ctx) {
    String format = ctx.request().getParam("format", "jsonl");
    ExportFormat f;
    try {
      f = ExportFormat.valueOf(format.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw ApiProblem.invalidParameter("format", "format must be jsonl or csv");
    }
    audit(ctx, ApiRequest.caller(ctx).name(), "audit.export", AuditOutcome.SUCCESS, f.name());
    try {
      Path folder = Files.createTempDirectory("bulwark-audit-export");
      Path file = exports.exportTo(f, folder);
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
    ctx.response().putHeader("Content-Type", "application/x-pem-file").end(exports.publicKeyPem());
  }

  void verify(RoutingContext ctx) {
    AuditVerification v = auditLog.verify();
    ApiRequest.json(
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
      auditLog.append(
          new AuditEvent(
              actor, ApiRequest.source(ctx), action, "", outcome, Map.of("detail", what)));
    } catch (AuditUnavailableException e) {
      throw ApiProblem.auditUnavailable("refused: the audit log cannot record it");
    }
  }

  private static void deleteQuietly(Path folder) {
    try (var files = Files.walk(folder)) {
      for (Path p : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    } catch (IOException e) {
      System.getLogger(AuditExportResource.class.getName())
          .log(
              System.Logger.Level.WARNING,
              "could not remove the staged export " + folder + ": " + e);
    }
  }
}
