package io.bulwark.web.internal;

import io.bulwark.api.audit.AuditLog;
import io.bulwark.api.audit.AuditOutcome;
import io.bulwark.api.audit.AuditQuery;
import io.bulwark.api.audit.AuditRecord;
import io.bulwark.web.api.ApiProblem;
import io.bulwark.web.api.ApiRequest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * {@code GET /api/v1/audit}: search the audit log by time ({@code from}, {@code to}, ISO-8601),
 * {@code actor}, {@code action} and {@code outcome}, paged by {@code after} (the last sequence
 * seen) and {@code limit}; for auditors and admins.
 */
final class AuditResource {
  private static final int MAX_LIMIT = 1000;

  private final AuditLog audit;

  AuditResource(AuditLog audit) {
    this.audit = audit;
  }

  void search(RoutingContext ctx) {
    AuditQuery query =
        new AuditQuery(
            instant(ctx, "from"),
            instant(ctx, "to"),
            Optional.ofNullable(ctx.request().getParam("actor")),
            Optional.ofNullable(ctx.request().getParam("action")),
            outcome(ctx),
            number(ctx, "after", 0, 0, Long.MAX_VALUE),
            (int) number(ctx, "limit", 100, 1, MAX_LIMIT));
    List<AuditRecord> records = audit.search(query);
    JsonArray out = new JsonArray();
    for (AuditRecord r : records) {
      out.add(
          new JsonObject()
              .put("sequence", r.sequence())
              .put("at", r.at().toString())
              .put("actor", r.event().actor())
              .put("source", r.event().source())
              .put("action", r.event().action())
              .put("target", r.event().target())
              .put("outcome", r.event().outcome().name().toLowerCase(Locale.ROOT))
              .put("details", new JsonObject(new java.util.LinkedHashMap<>(r.event().details()))));
    }
    JsonObject body = new JsonObject().put("records", out);
    if (records.size() == query.limit()) {
      body.put("next", records.get(records.size() - 1).sequence());
    }
    ApiRequest.json(ctx, body);
  }

  private static Optional<Instant> instant(RoutingContext ctx, String name) {
    String v = ctx.request().getParam(name);
    if (v == null) {
      return Optional.empty();
    }
    try {
      return Optional.of(Instant.parse(v));
    } catch (DateTimeParseException e) {
      throw ApiProblem.invalidParameter(name, name + " must be an ISO-8601 instant: " + v);
    }
  }

  private static Optional<AuditOutcome> outcome(RoutingContext ctx) {
    String v = ctx.request().getParam("outcome");
    if (v == null) {
      return Optional.empty();
    }
    try {
      return Optional.of(AuditOutcome.valueOf(v.toUpperCase(Locale.ROOT)));
    } catch (IllegalArgumentException e) {
      throw ApiProblem.invalidParameter("outcome", "outcome must be success, failure or denied");
    }
  }

  private static long number(RoutingContext ctx, String name, long fallback, long min, long max) {
    String v = ctx.request().getParam(name);
    if (v == null) {
      return fallback;
    }
    try {
      long n = Long.parseLong(v);
      if (n >= min && n <= max) {
        return n;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw ApiProblem.invalidParameter(name, name + " must be a number from " + min + " to " + max);
  }
}
