package io.bulwark.web.internal;

import io.bulwark.api.audit.AuditUnavailableException;
import io.bulwark.api.security.Accounts;
import io.bulwark.api.security.ApiToken;
import io.bulwark.api.security.IssuedToken;
import io.bulwark.api.security.Role;
import io.bulwark.api.security.TokenRepository;
import io.bulwark.web.api.ApiProblem;
import io.bulwark.web.api.ApiRequest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;

/**
 * {@code /api/v1/tokens}: API tokens for automation (admins only). The list shows each token's
 * name, role, creator, expiry and state, never its secret; a new token's secret is in the response
 * of its creation and nowhere else; revoking one takes effect at once.
 */
final class TokensResource {
  private final Accounts accounts;
  private final TokenRepository tokens;
  private final Clock clock;

  TokensResource(Accounts accounts, TokenRepository tokens, Clock clock) {
    this.accounts = accounts;
    this.tokens = tokens;
    this.clock = clock;
  }

  void list(RoutingContext ctx) {
    Instant now = clock.instant();
    JsonArray out = new JsonArray();
    for (ApiToken t : tokens.tokens()) {
      out.add(
          new JsonObject()
              .put("id", t.id())
              .put("name", t.name())
              .put("role", t.role().name().toLowerCase(Locale.ROOT))
              .put("createdBy", t.createdBy())
              .put("createdAt", t.createdAt().toString())
              .put("expiresAt", t.expiresAt().toString())
              .put("state", t.revoked() ? "revoked" : t.validAt(now) ? "active" : "expired"));
    }
    ApiRequest.json(ctx, new JsonObject().put("tokens", out));
  }

  void create(RoutingContext ctx) {
    JsonObject body = ApiRequest.body(ctx);
    String name = ApiRequest.text(body, "name", "");
    if (name.isBlank() || name.length() > 64) {
      throw ApiProblem.invalidBody("'name' must be 1 to 64 characters");
    }
    Role role;
    try {
      role = Role.valueOf(ApiRequest.text(body, "role", "").toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw ApiProblem.invalidBody("'role' must be admin, operator or auditor");
    }
    Object days = body.getValue("validityDays", 90);
    if (!(days instanceof Number n)
        || n.doubleValue() != Math.rint(n.doubleValue())
        || n.doubleValue() < 1) {
      throw ApiProblem.invalidBody("'validityDays' must be a whole, positive number of days");
    }
    try {
      IssuedToken issued =
          accounts.createToken(
              ApiRequest.caller(ctx).name(),
              name,
              role,
              Duration.ofDays(n.intValue()),
              ApiRequest.source(ctx));
      ctx.response().setStatusCode(201);
      ApiRequest.json(
          ctx,
          new JsonObject()
              .put("id", issued.stored().id())
              .put("name", issued.stored().name())
              .put("role", issued.stored().role().name().toLowerCase(Locale.ROOT))
              .put("expiresAt", issued.stored().expiresAt().toString())
              .put("token", issued.token()));
    } catch (AuditUnavailableException e) {
      throw ApiProblem.auditUnavailable("no token was issued: the audit log cannot record it");
    } catch (IllegalArgumentException e) {
      // The accounts refuse a name they cannot keep (control characters…): the caller's to fix.
      throw ApiProblem.invalidBody(e.getMessage());
    }
  }

  void revoke(RoutingContext ctx) {
    try {
      boolean revoked =
          accounts.revokeToken(
              ApiRequest.caller(ctx).name(), ctx.pathParam("id"), ApiRequest.source(ctx));
      if (!revoked) {
        throw ApiProblem.notFound("no token with id " + ctx.pathParam("id"));
      }
      ctx.response().setStatusCode(204).end();
    } catch (AuditUnavailableException e) {
      throw ApiProblem.auditUnavailable(
          "the token was not revoked: the audit log cannot record it");
    }
  }
}
