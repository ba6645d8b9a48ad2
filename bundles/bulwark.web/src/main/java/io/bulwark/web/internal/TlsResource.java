package io.bulwark.web.internal;

import io.bulwark.api.audit.AuditEvent;
import io.bulwark.api.audit.AuditLog;
import io.bulwark.api.audit.AuditOutcome;
import io.bulwark.api.audit.AuditUnavailableException;
import io.bulwark.api.security.AdminTls;
import io.bulwark.web.api.ApiProblem;
import io.bulwark.web.api.ApiRequest;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import java.util.Arrays;
import java.util.Map;
import java.util.function.Supplier;

/**
 * {@code /api/v1/tls/certificate}: the admin plane's certificate (subject, issuer, validity,
 * fingerprint) and the import of a chain and key from the site's CA, audited as {@code tls.import}.
 */
final class TlsResource {
  private final AdminTls tls;
  private final Supplier<AuditLog> audit;

  /** {@code audit} gives the audit log, or throws if it is not there now. */
  TlsResource(AdminTls tls, Supplier<AuditLog> audit) {
    this.tls = tls;
    this.audit = audit;
  }

  void certificate(RoutingContext ctx) {
    var cert = tls.certificate();
    ApiRequest.json(
        ctx,
        new JsonObject()
            .put("subject", cert.getSubjectX500Principal().getName())
            .put("issuer", cert.getIssuerX500Principal().getName())
            .put("serialNumber", cert.getSerialNumber().toString(16))
            .put("notBefore", cert.getNotBefore().toInstant().toString())
            .put("notAfter", cert.getNotAfter().toInstant().toString())
            .put("sha256", CertificateFingerprint.sha256(cert))
            .put("chainLength", tls.certificateChain().size()));
  }

  void importCertificate(RoutingContext ctx) {
    JsonObject body = ApiRequest.body(ctx);
    String chain = ApiRequest.text(body, "chainPem", null);
    String key = ApiRequest.text(body, "keyPem", null);
    if (chain == null || key == null) {
      throw ApiProblem.invalidBody("send 'chainPem' and 'keyPem'");
    }
    char[] keyPem = key.toCharArray();
    String actor = ApiRequest.caller(ctx).name();
    try {
      tls.importPem(chain, keyPem);
    } catch (IllegalArgumentException e) {
      try {
        audit(ctx, actor, "tls.import", AuditOutcome.FAILURE, e.getMessage());
      } catch (ApiProblem auditDown) {
        // The refusal itself is what the administrator must see; the audit log's state shows
        // on the System page.
      }
      throw ApiProblem.invalidBody(e.getMessage());
    } finally {
      Arrays.fill(keyPem, '\0');
    }
    // The key store replaces the identity atomically and cannot be asked first, so the record
    // follows the change; if it cannot be made, the answer says the change was made.
    try {
      audit
          .get()
          .append(
              new AuditEvent(
                  actor,
                  ApiRequest.source(ctx),
                  "tls.import",
                  "",
                  AuditOutcome.SUCCESS,
                  Map.of("detail", "the admin certificate was replaced")));
    } catch (AuditUnavailableException e) {
      throw ApiProblem.auditUnavailable(
          "the admin certificate WAS replaced, but the audit log could not record it; restore the"
              + " audit log (System page) and note the change");
    }
    certificate(ctx);
  }

  private void audit(
      RoutingContext ctx, String actor, String action, AuditOutcome outcome, String what) {
    try {
      audit
          .get()
          .append(
              new AuditEvent(
                  actor, ApiRequest.source(ctx), action, "", outcome, Map.of("detail", what)));
    } catch (AuditUnavailableException e) {
      throw ApiProblem.auditUnavailable("refused: the audit log cannot record it");
    }
  }
}
