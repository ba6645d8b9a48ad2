package io.bulwark.web.internal;

import io.bulwark.api.audit.AuditUnavailableException;
import io.bulwark.api.security.Accounts;
import io.bulwark.api.security.Role;
import io.bulwark.api.security.UserAccount;
import io.bulwark.api.security.UserRepository;
import io.bulwark.web.api.ApiProblem;
import io.bulwark.web.api.ApiRequest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import java.time.Clock;
import java.util.Arrays;
import java.util.Locale;

/**
 * {@code /api/v1/users}: the local users (list, create, delete, unlock). Every change is made and
 * audited by the accounts service; a change it cannot audit is refused with 503.
 */
final class UsersResource {
  private final Accounts accounts;
  private final UserRepository users;
  private final Clock clock;

  UsersResource(Accounts accounts, UserRepository users, Clock clock) {
    this.accounts = accounts;
    this.users = users;
    this.clock = clock;
  }

  void users(RoutingContext ctx) {
    JsonArray out = new JsonArray();
    for (UserAccount u : users.users()) {
      out.add(describe(u));
    }
    ApiRequest.json(ctx, new JsonObject().put("users", out));
  }

  /**
   * {@code POST /api/v1/users/{name}/unlock}: lifts every lockout of the user and forgets the
   * failed logins that counted towards them. Audited as {@code user.unlock} before it takes effect.
   */
  void unlockUser(RoutingContext ctx) {
    String name = ctx.pathParam("name");
    try {
      UserAccount unlocked =
          accounts
              .unlockUser(ApiRequest.caller(ctx).name(), name, ApiRequest.source(ctx))
              .orElseThrow(() -> ApiProblem.notFound("no user " + name));
      ApiRequest.json(ctx, describe(unlocked));
    } catch (AuditUnavailableException e) {
      throw ApiProblem.auditUnavailable(
          "the user was not unlocked: the audit log cannot record it");
    }
  }

  private JsonObject describe(UserAccount u) {
    boolean locked = u.lockedAt(clock.instant());
    return new JsonObject()
        .put("name", u.name())
        .put("role", u.role().name().toLowerCase(Locale.ROOT))
        .put("mustChangePassword", u.mustChangePassword())
        .put("locked", locked)
        .put("lockedUntil", locked ? u.lockedUntil().toString() : null)
        .put("disabled", u.disabled());
  }

  void createUser(RoutingContext ctx) {
    JsonObject body = ApiRequest.body(ctx);
    String name = ApiRequest.text(body, "name", "");
    Role role = role(body.getValue("role"));
    Object password = body.getValue("password");
    if (!(password instanceof String p)) {
      throw ApiProblem.invalidBody("'password' (the initial password) must be a string");
    }
    char[] initial = p.toCharArray();
    try {
      accounts.createUser(
          ApiRequest.caller(ctx).name(), name, role, initial, ApiRequest.source(ctx));
      ctx.response().setStatusCode(201);
      ApiRequest.json(
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
          accounts.deleteUser(
              ApiRequest.caller(ctx).name(), ctx.pathParam("name"), ApiRequest.source(ctx));
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

  private static Role role(Object value) {
    try {
      return Role.valueOf(String.valueOf(value).toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw ApiProblem.invalidBody("'role' must be admin, operator or auditor");
    }
  }
}
