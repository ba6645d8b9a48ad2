package io.bulwark.web.internal;

import io.bulwark.api.audit.AuditUnavailableException;
import io.bulwark.api.security.Accounts;
import io.bulwark.api.security.AuthenticationException;
import io.bulwark.api.security.Principal;
import io.bulwark.api.security.Session;
import io.bulwark.web.api.ApiProblem;
import io.bulwark.web.api.ApiRequest;
import io.vertx.core.http.Cookie;
import io.vertx.core.http.CookieSameSite;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import java.util.Arrays;
import java.util.function.Consumer;

/**
 * {@code /api/v1/session}: log in (POST, public), who am I (GET), log out (DELETE), and change the
 * password ({@code POST /api/v1/session/password}). The session id travels only in a {@code Secure;
 * HttpOnly; SameSite=Strict} cookie; the CSRF token is given to the page once, at login.
 */
final class SessionResource {
  private final Accounts accounts;
  private final Consumer<String> loggedInFrom;

  /** {@code loggedInFrom} hears the address of every successful login. */
  SessionResource(Accounts accounts, Consumer<String> loggedInFrom) {
    this.accounts = accounts;
    this.loggedInFrom = loggedInFrom;
  }

  void login(RoutingContext ctx) {
    JsonObject body = ApiRequest.body(ctx);
    String user = ApiRequest.text(body, "user", "");
    char[] password = password(body, "password");
    try {
      Session session = accounts.login(user, password, AccessControl.source(ctx));
      loggedInFrom.accept(AccessControl.source(ctx));
      ctx.response()
          .addCookie(
              Cookie.cookie(AccessControl.COOKIE, session.id())
                  .setPath("/")
                  .setSecure(true)
                  .setHttpOnly(true)
                  .setSameSite(CookieSameSite.STRICT));
      ctx.response().setStatusCode(201);
      ApiRequest.json(ctx, describe(session).put("csrfToken", session.csrfToken()));
    } catch (AuthenticationException e) {
      throw ApiProblem.unauthenticated(e.getMessage());
    } catch (AuditUnavailableException e) {
      throw ApiProblem.auditUnavailable(
          "logins are refused while the audit log cannot record them");
    } finally {
      Arrays.fill(password, '\0');
    }
  }

  void current(RoutingContext ctx) {
    Session session = AccessControl.session(ctx);
    Principal p = AccessControl.principal(ctx);
    ApiRequest.json(
        ctx,
        session != null
            ? describe(session).put("csrfToken", session.csrfToken())
            : new JsonObject()
                .put("user", p.name())
                .put("role", p.role().name().toLowerCase(java.util.Locale.ROOT))
                .put("kind", "token")
                .put("mustChangePassword", false));
  }

  void logout(RoutingContext ctx) {
    Session session = AccessControl.session(ctx);
    if (session != null) {
      accounts.logout(session.id(), AccessControl.source(ctx));
    }
    ctx.response()
        .addCookie(
            Cookie.cookie(AccessControl.COOKIE, "")
                .setPath("/")
                .setSecure(true)
                .setHttpOnly(true)
                .setSameSite(CookieSameSite.STRICT)
                .setMaxAge(0));
    ctx.response().setStatusCode(204).end();
  }

  void changePassword(RoutingContext ctx) {
    Session session = AccessControl.session(ctx);
    if (session == null) {
      throw ApiProblem.forbidden("API tokens have no password; log in as the user");
    }
    JsonObject body = ApiRequest.body(ctx);
    char[] current = password(body, "current");
    char[] next = password(body, "next");
    try {
      accounts.changePassword(
          session.user(), current, next, AccessControl.source(ctx), session.id());
      ctx.response().setStatusCode(204).end();
    } catch (AuthenticationException e) {
      throw ApiProblem.invalidBody("the current password is wrong");
    } catch (IllegalArgumentException e) {
      throw ApiProblem.invalidBody(e.getMessage());
    } catch (AuditUnavailableException e) {
      throw ApiProblem.auditUnavailable(
          "the password was not changed: the audit log cannot record it");
    } finally {
      Arrays.fill(current, '\0');
      Arrays.fill(next, '\0');
    }
  }

  private static JsonObject describe(Session s) {
    return new JsonObject()
        .put("user", s.user())
        .put("role", s.role().name().toLowerCase(java.util.Locale.ROOT))
        .put("kind", "session")
        .put("mustChangePassword", s.mustChangePassword());
  }

  private static char[] password(JsonObject body, String field) {
    Object value = body.getValue(field);
    if (!(value instanceof String s)) {
      throw ApiProblem.invalidBody("'" + field + "' must be a string");
    }
    return s.toCharArray();
  }
}
