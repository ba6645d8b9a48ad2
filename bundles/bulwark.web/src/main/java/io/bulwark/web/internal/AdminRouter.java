package io.bulwark.web.internal;

import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

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

  private AdminRouter() {}

  /** Returns the router; {@code events} serves {@code /api/v1/events}. */
  static Router create(Vertx vertx, AdminServices services, EventStream events) {
    NodesResource nodes = new NodesResource(services);
    FindingsResource findings = new FindingsResource(services);
    OverviewResource overview = new OverviewResource(services);
    HealthResource health = new HealthResource(services);

    Router router = Router.router(vertx);
    router.route().handler(AdminRouter::securityHeaders);
    router.get("/api/v1/nodes").blockingHandler(blocking(nodes::list), false);
    router.get("/api/v1/nodes/:node").blockingHandler(blocking(nodes::detail), false);
    router.get("/api/v1/findings").blockingHandler(blocking(findings::list), false);
    router.get("/api/v1/capacity").blockingHandler(blocking(overview::capacity), false);
    router.get("/api/v1/telemetry/targets").blockingHandler(blocking(overview::targets), false);
    router.get("/api/v1/health").blockingHandler(blocking(health::health), false);
    router.get("/api/v1/events").handler(events::open);
    router
        .getWithRegex("/(?!api(?:/|$)).*")
        .handler(new WebrootAssets(AdminRouter.class.getClassLoader()));

    router.route().failureHandler(ProblemResponses::failure);
    router.errorHandler(404, ProblemResponses::notFound);
    router.errorHandler(405, ProblemResponses::methodNotAllowed);
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
