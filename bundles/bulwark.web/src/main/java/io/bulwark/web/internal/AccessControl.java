package io.bulwark.web.internal;

import io.bulwark.api.audit.AuditEvent;
import io.bulwark.api.security.Accounts;
import io.bulwark.api.security.Principal;
import io.bulwark.api.security.Role;
import io.bulwark.api.security.Session;
import io.bulwark.web.api.ApiProblem;
import io.bulwark.web.api.ApiRequest;
import io.vertx.core.Handler;
import io.vertx.core.http.Cookie;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.RoutingContext;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Who may call what on the admin plane. Every API request except login and the notice banner must
 * carry a valid API token ({@code Authorization: Bearer …}) or a session cookie; a state-changing
 * request on a session must echo its CSRF token in {@code X-CSRF-Token}; a user who must change the
 * initial password can do only that; and each route names the roles it admits. Refusals of
 * state-changing requests are audited through {@link RefusalDigest}, one record per client and
 * minute with a count. The address of every request that authenticated is reported (to {@link
 * AuthenticatedAddresses}), so that its connections keep a share of the listener under a flood.
 */
final class AccessControl {
  static final String COOKIE = "bulwark_session";
  static final String CSRF_HEADER = "X-CSRF-Token";
  private static final String PRINCIPAL = ApiRequest.CALLER;
  private static final String SESSION = "bulwark.session";

  /** Every role: the read-only views. */
  static final Set<Role> ANY = EnumSet.allOf(Role.class);

  private final Accounts accounts;
  private final RefusalDigest refusals;
  private final Consumer<String> authenticatedFrom;

  AccessControl(Accounts accounts, RefusalDigest refusals, Consumer<String> authenticatedFrom) {
    this.accounts = accounts;
    this.refusals = refusals;
    this.authenticatedFrom = authenticatedFrom;
  }

  /**
   * Returns true for the routes anyone may call: login, the banner shown before it, and a node
   * agent's enrolment (its handler authenticates the one-time enrolment token an admin issued).
   */
  static boolean isPublic(HttpMethod method, String path) {
    return (method == HttpMethod.POST && path.equals("/api/v1/session"))
        || (method == HttpMethod.GET && path.equals("/api/v1/banner"))
        || (method == HttpMethod.POST && path.equals(AGENT_ENROLMENT));
  }

  /** The node agents' enrolment route, authenticated by its one-time token. */
  static final String AGENT_ENROLMENT = "/api/v1/agents/enrol";

  /** Blocking handler on /api/*: authenticates the request or refuses it. */
  void authenticate(RoutingContext ctx) {
    HttpMethod method = ctx.request().method();
    String path = ctx.request().path();
    if (isPublic(method, path)) {
      ctx.next();
      return;
    }
    String authorization = ctx.request().getHeader("Authorization");
    if (authorization != null) {
      Optional<Principal> principal =
          authorization.startsWith("Bearer ")
              ? accounts.authenticateToken(authorization.substring("Bearer ".length()).trim())
              : Optional.empty();
      if (principal.isEmpty()) {
        refuse(
            ctx, null, ApiProblem.unauthenticated("the API token is unknown, expired or revoked"));
        return;
      }
      ctx.put(PRINCIPAL, principal.get());
      authenticatedFrom.accept(source(ctx));
      ctx.next();
      return;
    }
    Cookie cookie = ctx.request().getCookie(COOKIE);
    Optional<Session> session =
        cookie == null ? Optional.empty() : accounts.session(cookie.getValue());
    if (session.isEmpty()) {
      refuse(ctx, null, ApiProblem.unauthenticated("log in first (or your session has ended)"));
      return;
    }
    Session s = session.get();
    if (changesState(method) && !sameToken(s.csrfToken(), ctx.request().getHeader(CSRF_HEADER))) {
      refuse(ctx, s.principal(), ApiProblem.forbidden("the CSRF token is missing or wrong"));
      return;
    }
    if (s.mustChangePassword() && !allowedBeforePasswordChange(method, path)) {
      refuse(
          ctx,
          s.principal(),
          ApiProblem.forbidden(
              "change the initial password first (POST /api/v1/session/password)"));
      return;
    }
    ctx.put(PRINCIPAL, s.principal());
    ctx.put(SESSION, s);
    authenticatedFrom.accept(source(ctx));
    ctx.next();
  }

  /**
   * Returns a handler that admits only principals with one of {@code roles}. A public route's
   * handler authenticates its caller itself (the agents' enrolment its one-time token): its
   * refusals of state-changing requests are counted here, through {@link RefusalDigest}, like every
   * other anonymous refusal, so that the route need not audit each one.
   */
  Handler<RoutingContext> requires(Set<Role> roles) {
    return ctx -> {
      if (isPublic(ctx.request().method(), ctx.request().path())) {
        if (changesState(ctx.request().method())) {
          countRefusal(ctx);
        }
        ctx.next();
        return;
      }
      Principal p = principal(ctx);
      if (p == null || !roles.contains(p.role())) {
        refuse(
            ctx,
            p,
            ApiProblem.forbidden(
                "this needs the role "
                    + String.join(" or ", roles.stream().map(Role::name).sorted().toList())));
        return;
      }
      ctx.next();
    };
  }

  static Principal principal(RoutingContext ctx) {
    return ctx.get(PRINCIPAL);
  }

  static Session session(RoutingContext ctx) {
    return ctx.get(SESSION);
  }

  static String source(RoutingContext ctx) {
    return ApiRequest.source(ctx);
  }

  private void refuse(RoutingContext ctx, Principal who, ApiProblem problem) {
    if (changesState(ctx.request().method())) {
      refusals.refused(
          who == null ? "anonymous" : who.name(),
          source(ctx),
          ctx.request().method() + " " + ctx.request().path(),
          problem.getMessage());
    }
    ctx.fail(problem);
  }

  /**
   * Counts the request as refused by its anonymous caller if it is answered 4xx: counted before the
   * answer leaves (on the event loop, without blocking), its record written on a worker.
   */
  private void countRefusal(RoutingContext ctx) {
    String request = ctx.request().method() + " " + ctx.request().path();
    String source = source(ctx);
    ctx.addHeadersEndHandler(
        v -> {
          int status = ctx.response().getStatusCode();
          if (status < 400 || status >= 500) {
            return;
          }
          String reason =
              status + ": " + (ctx.failure() == null ? "refused" : ctx.failure().getMessage());
          AuditEvent first = refusals.count("anonymous", source, request, reason);
          if (first != null) {
            ctx.vertx()
                .executeBlocking(
                    () -> {
                      refusals.record(first);
                      return null;
                    },
                    false);
          }
        });
  }

  private static boolean changesState(HttpMethod method) {
    return !(method == HttpMethod.GET || method == HttpMethod.HEAD || method == HttpMethod.OPTIONS);
  }

  private static boolean allowedBeforePasswordChange(HttpMethod method, String path) {
    return path.equals("/api/v1/session")
        || (method == HttpMethod.POST && path.equals("/api/v1/session/password"))
        || (method == HttpMethod.GET && path.equals("/api/v1/banner"));
  }

  private static boolean sameToken(String expected, String presented) {
    return presented != null
        && MessageDigest.isEqual(
            expected.getBytes(StandardCharsets.US_ASCII),
            presented.getBytes(StandardCharsets.US_ASCII));
  }
}
