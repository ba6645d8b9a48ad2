package io.bulwark.web.internal;

import io.bulwark.api.security.Role;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.http.HttpVersion;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import java.util.EnumSet;

/**
 * Builds the admin plane's router: the JSON API under {@code /api/v1}, the event stream, the UI's
 * files, and problem+json answers for every error. Every response carries the security headers the
 * UI is written for (a strict Content-Security-Policy: no inline script or style, nothing from
 * other origins).
 */
final class AdminRouter {
  static final String CONTENT_SECURITY_POLICY =
      "default-src 'none'; script-src 'self'; style-src 'self';"
          + " img-src 'self'; connect-src 'self'; font-src 'self'; manifest-src 'self'; base-uri 'none';"
          + " form-action 'self'; frame-ancestors 'none'";

  static final int MAX_BODY_BYTES = 16 * 1024;

  private AdminRouter() {}

  /** {@code GET /api/v1/banner}: the notice-and-consent text shown before login (public). */
  private static void banner(RoutingContext ctx, String text) {
    ApiJson.send(ctx, new io.vertx.core.json.JsonObject().put("text", text));
  }

  /**
   * Returns the router; {@code events} serves {@code /api/v1/events}, {@code deadlines} hears when
   * each request's headers and body are in, {@code refusals} audits refused requests, {@code
   * logins} admits the requests that hash a password.
   */
  static Router create(
      Vertx vertx,
      AdminServices services,
      EventStream events,
      RequestDeadlines deadlines,
      RefusalDigest refusals,
      LoginGate logins) {
    NodesResource nodes = new NodesResource(services);
    FindingsResource findings = new FindingsResource(services);
    OverviewResource overview = new OverviewResource(services);
    CapacityResource capacity = new CapacityResource(services, services.price());
    HealthResource health = new HealthResource(services);

    AccessControl access = new AccessControl(services.accounts(), refusals);
    SessionResource session = new SessionResource(services.accounts(), logins::succeeded);
    TokensResource tokens =
        new TokensResource(services.accounts(), services.tokens(), services.clock());
    AuditResource audit = new AuditResource(services.audit());
    Handler<RoutingContext> anyRole = access.requires(AccessControl.ANY);
    Handler<RoutingContext> admin = access.requires(EnumSet.of(Role.ADMIN));
    Handler<RoutingContext> auditors = access.requires(EnumSet.of(Role.AUDITOR, Role.ADMIN));

    Router router = Router.router(vertx);
    router.route().handler(deadlines::requestStarted);
    router.route().handler(AdminRouter::securityHeaders);
    router.route("/api/*").handler(BodyHandler.create(false).setBodyLimit(MAX_BODY_BYTES));
    router.route("/api/*").handler(deadlines::bodyRead);
    router.route("/api/*").handler(AdminRouter::jsonBodiesOnly);
    router.route("/api/*").blockingHandler(access::authenticate, false);

    router.get("/api/v1/banner").handler(ctx -> banner(ctx, services.banner()));
    router.post("/api/v1/session").handler(logins.admit(blocking(session::login)));
    router.get("/api/v1/session").handler(anyRole).handler(blocking(session::current));
    router
        .delete("/api/v1/session")
        .handler(anyRole)
        .blockingHandler(blocking(session::logout), false);
    router
        .post("/api/v1/session/password")
        .handler(anyRole)
        .handler(logins.admit(blocking(session::changePassword)));
    router.get("/api/v1/tokens").handler(admin).blockingHandler(blocking(tokens::list), false);
    router.post("/api/v1/tokens").handler(admin).blockingHandler(blocking(tokens::create), false);
    router
        .delete("/api/v1/tokens/:id")
        .handler(admin)
        .blockingHandler(blocking(tokens::revoke), false);
    router.get("/api/v1/audit").handler(auditors).blockingHandler(blocking(audit::search), false);
    AdministrationResource administration = new AdministrationResource(services);
    router
        .get("/api/v1/audit/export")
        .handler(auditors)
        .blockingHandler(blocking(administration::export), false);
    router
        .get("/api/v1/audit/public-key")
        .handler(auditors)
        .blockingHandler(blocking(administration::publicKey), false);
    router
        .get("/api/v1/audit/verify")
        .handler(auditors)
        .blockingHandler(blocking(administration::verify), false);
    router
        .get("/api/v1/users")
        .handler(auditors)
        .blockingHandler(blocking(administration::users), false);
    router
        .post("/api/v1/users")
        .handler(admin)
        .blockingHandler(blocking(administration::createUser), false);
    router
        .delete("/api/v1/users/:name")
        .handler(admin)
        .blockingHandler(blocking(administration::deleteUser), false);
    router
        .post("/api/v1/users/:name/unlock")
        .handler(admin)
        .blockingHandler(blocking(administration::unlockUser), false);
    router
        .get("/api/v1/tls/certificate")
        .handler(anyRole)
        .blockingHandler(blocking(administration::certificate), false);
    router
        .post("/api/v1/tls/certificate")
        .handler(admin)
        .blockingHandler(blocking(administration::importCertificate), false);

    router.get("/api/v1/nodes").handler(anyRole).blockingHandler(blocking(nodes::list), false);
    router
        .get("/api/v1/nodes/:node")
        .handler(anyRole)
        .blockingHandler(blocking(nodes::detail), false);
    NodeRemoval removal = new NodeRemoval(services);
    router
        .delete("/api/v1/nodes/:node")
        .handler(admin)
        .blockingHandler(blocking(removal::removeOne), false);
    router
        .post("/api/v1/nodes/remove-silent")
        .handler(admin)
        .blockingHandler(blocking(removal::removeSilent), false);
    router
        .get("/api/v1/findings")
        .handler(anyRole)
        .blockingHandler(blocking(findings::list), false);
    router
        .get("/api/v1/capacity")
        .handler(anyRole)
        .blockingHandler(blocking(capacity::capacity), false);
    router
        .get("/api/v1/telemetry/targets")
        .handler(anyRole)
        .blockingHandler(blocking(overview::targets), false);
    router.get("/api/v1/health").handler(anyRole).blockingHandler(blocking(health::health), false);
    router.get("/api/v1/events").handler(anyRole).handler(events::open);
    router
        .get("/metrics")
        .blockingHandler(access::authenticate, false)
        .handler(anyRole)
        .handler(new MetricsResource(services.subsystems())::metrics);
    router
        .getWithRegex("/(?!api(?:/|$)).*")
        .handler(new WebrootAssets(AdminRouter.class.getClassLoader()));

    router.route().failureHandler(ProblemResponses::failure);
    router.errorHandler(404, ProblemResponses::notFound);
    AllowedMethods allowed = new AllowedMethods(router);
    router.errorHandler(
        405, ctx -> ProblemResponses.methodNotAllowed(ctx, allowed.at(ctx.normalizedPath())));
    router.errorHandler(500, ProblemResponses::internalError);
    return router;
  }

  /**
   * Wraps a handler so that whatever it throws fails the request instead of escaping the worker.
   */
  private static Handler<RoutingContext> blocking(Handler<RoutingContext> handler) {
    return ctx -> {
      try {
        handler.handle(ctx);
      } catch (RuntimeException e) {
        ctx.fail(e);
      }
    };
  }

  /**
   * Returns {@code router} behind a check that refuses an HTTP/1.1 request without a Host header
   * (RFC 9112, section 3.2) with a 400 problem: the router cannot route such a request at all.
   */
  static Handler<HttpServerRequest> requiringHost(Router router) {
    return request -> {
      if (request.version() == HttpVersion.HTTP_1_1
          && request.headers().get(HttpHeaders.HOST) == null) {
        request
            .response()
            .setStatusCode(400)
            .putHeader("Content-Type", ProblemResponses.CONTENT_TYPE)
            .putHeader("Cache-Control", "no-store")
            .putHeader("Connection", "close")
            .end(
                new io.vertx.core.json.JsonObject()
                    .put("type", "urn:bulwark:problem:bad-request")
                    .put("title", "Bad request")
                    .put("status", 400)
                    .put("detail", "an HTTP/1.1 request must have a Host header")
                    .encode());
        return;
      }
      router.handle(request);
    };
  }

  /**
   * Refuses a request body that is not {@code application/json} (415), before anything reads it or
   * hashes a password for it.
   */
  private static void jsonBodiesOnly(RoutingContext ctx) {
    if (ctx.body() != null && ctx.body().length() > 0) {
      String type = ctx.request().getHeader(HttpHeaders.CONTENT_TYPE);
      String media =
          type == null ? "" : type.split(";", 2)[0].strip().toLowerCase(java.util.Locale.ROOT);
      if (!media.equals("application/json")) {
        ctx.fail(
            ApiProblem.unsupportedMediaType(
                "send the body as application/json" + (media.isEmpty() ? "" : ", not " + media)));
        return;
      }
    }
    ctx.next();
  }

  private static void securityHeaders(RoutingContext ctx) {
    HttpServerResponse response = ctx.response();
    response
        .putHeader("Content-Security-Policy", CONTENT_SECURITY_POLICY)
        .putHeader("X-Content-Type-Options", "nosniff")
        .putHeader("X-Frame-Options", "DENY")
        .putHeader("Referrer-Policy", "no-referrer")
        .putHeader("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
    ctx.next();
  }
}
