package io.bulwark.web.internal;

import io.bulwark.api.security.Role;
import io.bulwark.api.system.SubsystemState;
import io.bulwark.web.api.ApiProblem;
import io.bulwark.web.api.ApiRequest;
import io.bulwark.web.api.ApiRoute;
import io.bulwark.web.api.UiPage;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Route;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Builds the admin plane's router: its own routes (the notice banner, sessions, the page manifest,
 * the route table, the event stream, {@code /metrics}), every contributed route behind
 * authentication and its role check, 503 problems for the routes of contributors that went, the
 * pages' files, the UI's files, and problem+json answers for every error. Every response carries
 * the security headers the UI is written for (a strict Content-Security-Policy: no inline script or
 * style, nothing from other origins). Built anew whenever a contribution comes or goes.
 */
final class AdminRouter {
  static final String CONTENT_SECURITY_POLICY =
      "default-src 'none'; script-src 'self'; style-src 'self';"
          + " img-src 'self'; connect-src 'self'; font-src 'self'; manifest-src 'self'; base-uri 'none';"
          + " form-action 'self'; frame-ancestors 'none'";

  static final int MAX_BODY_BYTES = 16 * 1024;

  private static final Logger LOG = System.getLogger(AdminRouter.class.getName());

  /**
   * One route of the table: who may call it and who contributed it ("core" for the plane's own).
   */
  record RouteInfo(String method, String path, Set<Role> roles, String owner) {
    boolean isPublic() {
      return roles.isEmpty()
          || AccessControl.isPublic(io.vertx.core.http.HttpMethod.valueOf(method), path);
    }
  }

  private final Vertx vertx;
  private final WebServer.Core core;
  private final Contributions contributions;
  private final EventHub events;
  private final RequestDeadlines deadlines;
  private final AccessControl access;
  private final SessionResource session;
  private final LoginGate logins;
  private final MetricsResource metrics;
  private final WebrootAssets webroot = new WebrootAssets(AdminRouter.class.getClassLoader());
  private volatile List<RouteInfo> table = List.of();
  private volatile String openApi;

  AdminRouter(
      Vertx vertx,
      WebServer.Core core,
      Contributions contributions,
      EventHub events,
      RequestDeadlines deadlines,
      RefusalDigest refusals,
      LoginGate logins) {
    this.vertx = vertx;
    this.core = core;
    this.contributions = contributions;
    this.events = events;
    this.deadlines = deadlines;
    this.access = new AccessControl(core.accounts(), refusals, core.authenticatedFrom());
    this.session = new SessionResource(core.accounts(), logins::succeeded);
    this.logins = logins;
    this.metrics = new MetricsResource(core.subsystems());
  }

  /** Returns the routes of the router built last, the plane's own and contributed. */
  List<RouteInfo> table() {
    return table;
  }

  /** Returns a new router with every route contributed now. */
  Router build() {
    Set<Role> any = ApiRoute.ANY_ROLE;
    List<RouteInfo> routes = new ArrayList<>();
    Router router = Router.router(vertx);
    router.route().handler(deadlines::requestStarted);
    router.route().handler(AdminRouter::securityHeaders);
    router.route().handler(AdminRouter::compressOnlyReads);
    // Uploads are streamed by their handler once the caller is authorised: their body is held
    // (the request paused) until then, and never read into memory.
    List<Upload> uploads = new ArrayList<>();
    for (Contributions.RouteSet set : contributions.routeSets()) {
      for (ApiRoute r : set.routes()) {
        if (r.execution() == ApiRoute.Execution.STREAMED) {
          uploads.add(new Upload(r.method(), AllowedMethods.pattern(r.path())));
        }
      }
    }
    BodyHandler bodies = BodyHandler.create(false).setBodyLimit(MAX_BODY_BYTES);
    router
        .route("/api/*")
        .handler(
            ctx -> {
              if (isUpload(uploads, ctx)) {
                ctx.request().pause();
                // Answered before the whole body was taken (refused, too big): the rest is not
                // read, so the connection cannot carry another request.
                ctx.addEndHandler(
                    v -> {
                      if (!ctx.request().isEnded()) {
                        // Discard what still arrives for up to 10 s, so that the client reads the
                        // answer before the connection closes under it.
                        ctx.request().handler(b -> {});
                        ctx.request().resume();
                        ctx.vertx().setTimer(10_000, t -> ctx.request().connection().close());
                      }
                    });
                ctx.next();
              } else {
                bodies.handle(ctx);
              }
            });
    router
        .route("/api/*")
        .handler(
            ctx -> {
              if (isUpload(uploads, ctx)) {
                ctx.next();
              } else {
                deadlines.bodyRead(ctx);
              }
            });
    router.route("/api/*").handler(AdminRouter::jsonBodiesOnly);
    router.route("/api/*").blockingHandler(access::authenticate, false);

    router.get("/api/v1/banner").handler(ctx -> banner(ctx, core.banner()));
    routes.add(new RouteInfo("GET", "/api/v1/banner", Set.of(), "core"));
    router
        .post("/api/v1/session")
        .handler(this::refuseUntilStarted)
        .handler(logins.admit(blocking(session::login)));
    routes.add(new RouteInfo("POST", "/api/v1/session", Set.of(), "core"));
    core(router, routes, HttpMethod.GET, "/api/v1/session", any, session::current);
    core(router, routes, HttpMethod.DELETE, "/api/v1/session", any, session::logout);
    Route password = router.post("/api/v1/session/password").handler(access.requires(any));
    password.handler(logins.admit(blocking(session::changePassword)));
    routes.add(new RouteInfo("POST", "/api/v1/session/password", any, "core"));
    core(router, routes, HttpMethod.GET, "/api/v1/ui/pages", any, this::pages);
    core(
        router,
        routes,
        HttpMethod.GET,
        "/api/v1/routes",
        Set.of(Role.ADMIN, Role.AUDITOR),
        this::routeTable);
    core(router, routes, HttpMethod.GET, "/api/v1/openapi.json", any, this::openApi);
    router.get("/api/v1/events").handler(access.requires(any)).handler(events::subscribe);
    routes.add(new RouteInfo("GET", "/api/v1/events", any, "core"));
    // For a load balancer or a service manager: up or not, nothing else, and no credentials.
    router.get("/healthz").handler(this::healthz);
    routes.add(new RouteInfo("GET", "/healthz", Set.of(), "core"));
    router
        .get("/metrics")
        .blockingHandler(access::authenticate, false)
        .handler(access.requires(any))
        .handler(metrics::metrics);
    routes.add(new RouteInfo("GET", "/metrics", any, "core"));

    Set<String> taken = new HashSet<>();
    routes.forEach(r -> taken.add(r.method() + " " + r.path()));
    for (Contributions.RouteSet set : contributions.routeSets()) {
      for (ApiRoute r : set.routes()) {
        String key = r.method().name() + " " + r.path();
        if (!taken.add(key)) {
          LOG.log(
              Level.WARNING,
              "Ignored the route " + key + " of " + set.name() + ": another contributor has it");
          continue;
        }
        Route route = router.route(r.method(), r.path()).handler(access.requires(r.roles()));
        if (r.execution() == ApiRoute.Execution.WORKER) {
          route.blockingHandler(blocking(r.handler()), false);
        } else if (r.execution() == ApiRoute.Execution.STREAMED) {
          // Authorised: the body's own deadline gives way to the handler's idle limit.
          route.handler(deadlines::bodyRead).handler(blocking(r.handler()));
        } else {
          route.handler(blocking(r.handler()));
        }
        routes.add(new RouteInfo(r.method().name(), r.path(), r.roles(), set.name()));
      }
    }
    List<Departed> gone = new ArrayList<>();
    for (Contributions.RouteSet set : contributions.departed()) {
      for (ApiRoute r : set.routes()) {
        if (!taken.contains(r.method().name() + " " + r.path())) {
          gone.add(new Departed(r.method(), AllowedMethods.pattern(r.path()), set.name()));
        }
      }
    }
    if (!gone.isEmpty()) {
      router.route("/api/*").handler(ctx -> departed(ctx, gone));
    }
    for (Contributions.PageSet pages : contributions.pageSets()) {
      router.get(pages.prefix() + "*").handler(new WebrootAssets(pages.files(), pages.prefix()));
    }
    router.getWithRegex("/(?!api(?:/|$)).*").handler(webroot);

    router.route().failureHandler(ProblemResponses::failure);
    router.errorHandler(404, ProblemResponses::notFound);
    AllowedMethods allowed = new AllowedMethods(router);
    router.errorHandler(
        405, ctx -> ProblemResponses.methodNotAllowed(ctx, allowed.at(ctx.normalizedPath())));
    router.errorHandler(500, ProblemResponses::internalError);
    routes.sort(Comparator.comparing(RouteInfo::path).thenComparing(RouteInfo::method));
    this.table = List.copyOf(routes);
    return router;
  }

  private void core(
      Router router,
      List<RouteInfo> routes,
      HttpMethod method,
      String path,
      Set<Role> roles,
      Handler<RoutingContext> handler) {
    router
        .route(method, path)
        .handler(access.requires(roles))
        .blockingHandler(blocking(handler), false);
    routes.add(new RouteInfo(method.name(), path, roles, "core"));
  }

  /** A route whose contributor went. */
  private record Departed(HttpMethod method, Pattern path, String contributor) {}

  private static void departed(RoutingContext ctx, List<Departed> gone) {
    for (Departed d : gone) {
      if (d.method() == ctx.request().method()
          && d.path().matcher(ctx.normalizedPath()).matches()) {
        ctx.fail(
            ApiProblem.unavailable(
                "the "
                    + d.contributor()
                    + " routes are not available now: their bundle, or a service they need, is"
                    + " being updated or has stopped; retry in a few seconds, and if this lasts"
                    + " check the bundle list on the System page"));
        return;
      }
    }
    ctx.next();
  }

  /** {@code GET /api/v1/ui/pages}: the pages and event topics the caller's role may use. */
  private void pages(RoutingContext ctx) {
    Role role = ApiRequest.caller(ctx).role();
    List<JsonObject> list = new ArrayList<>();
    for (Contributions.PageSet set : contributions.pageSets()) {
      for (UiPage p : set.pages()) {
        if (p.roles().contains(role)) {
          list.add(
              new JsonObject()
                  .put("id", p.id())
                  .put("title", p.title())
                  .put("module", set.prefix() + p.module())
                  .put("order", p.order())
                  .put("navigation", p.navigation()));
        }
      }
    }
    list.sort(Comparator.comparing((JsonObject p) -> p.getInteger("order")));
    ApiRequest.json(
        ctx,
        new JsonObject()
            .put("pages", new JsonArray(new ArrayList<>(list)))
            .put("topics", new JsonArray(events.topics(role))));
  }

  /** {@code GET /api/v1/routes}: every route with the roles it admits and who contributed it. */
  private void routeTable(RoutingContext ctx) {
    JsonArray out = new JsonArray();
    for (RouteInfo r : table) {
      JsonArray roles = new JsonArray();
      r.roles().stream()
          .map(x -> x.name().toLowerCase(java.util.Locale.ROOT))
          .sorted()
          .forEach(roles::add);
      out.add(
          new JsonObject()
              .put("method", r.method())
              .put("path", r.path())
              .put("roles", roles)
              .put("public", r.isPublic())
              .put("owner", r.owner()));
    }
    ApiRequest.json(ctx, new JsonObject().put("routes", out).put("count", out.size()));
  }

  /**
   * {@code GET /api/v1/openapi.json}: the OpenAPI 3.1 document of this API, read from the bundle
   * once.
   */
  private void openApi(RoutingContext ctx) {
    String document = openApi;
    if (document == null) {
      try (InputStream in = AdminRouter.class.getResourceAsStream("/openapi/bulwark-api.json")) {
        if (in == null) {
          throw new IllegalStateException("the bundle lacks /openapi/bulwark-api.json");
        }
        document = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read the OpenAPI document", e);
      }
      openApi = document;
    }
    ctx.response()
        .putHeader("Content-Type", "application/json")
        .putHeader("Cache-Control", "no-store")
        .end(document);
  }

  /** {@code GET /api/v1/banner}: the notice-and-consent text shown before login (public). */
  /**
   * {@code GET /healthz}: 200 "ok" while the appliance serves (every subsystem it must have is up
   * or degraded), 503 "starting" until it has started, 503 "unavailable" when a subsystem is down.
   * No detail: it answers without authentication.
   */
  private void healthz(RoutingContext ctx) {
    boolean starting = !core.started().getAsBoolean();
    boolean down =
        !starting && SubsystemChecks.overall(core.subsystems().statuses()) == SubsystemState.DOWN;
    ctx.response()
        .setStatusCode(starting || down ? 503 : 200)
        .putHeader("Content-Type", "text/plain; charset=utf-8")
        .putHeader("Cache-Control", "no-store")
        .end(starting ? "starting\n" : down ? "unavailable\n" : "ok\n");
  }

  /**
   * Answers a login 503 while the appliance is starting (before "Bulwark started"): some area may
   * not answer yet, and a session opened now would meet its 503s. The login gate does not count it.
   */
  private void refuseUntilStarted(RoutingContext ctx) {
    if (core.started().getAsBoolean()) {
      ctx.next();
    } else {
      ctx.fail(
          ApiProblem.unavailable(
              "Bulwark is starting: not every service is up yet; log in again in a few seconds"));
    }
  }

  private static void banner(RoutingContext ctx, String text) {
    ApiRequest.json(ctx, new JsonObject().put("text", text));
  }

  /**
   * Returns {@code router} behind a check that refuses an HTTP/1.1 request without a Host header
   * (RFC 9112, section 3.2) with a 400 problem: the router cannot route such a request at all.
   */
  static Handler<HttpServerRequest> requiringHost(Handler<HttpServerRequest> router) {
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
  private record Upload(HttpMethod method, java.util.regex.Pattern path) {}

  private static boolean isUpload(List<Upload> uploads, RoutingContext ctx) {
    if (uploads.isEmpty()) {
      return false;
    }
    String path = ctx.normalizedPath();
    for (Upload u : uploads) {
      if (u.method().equals(ctx.request().method()) && u.path().matcher(path).matches()) {
        return true;
      }
    }
    return false;
  }

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
   * Keeps gzip to reads that carry no secret: a compressed answer that holds a secret beside text
   * an attacker can choose leaks the secret through its length (BREACH). So the session (its CSRF
   * token), every state change (an issued token, a generated password) and the event stream (which
   * must reach the client frame by frame) go uncompressed.
   */
  private static void compressOnlyReads(RoutingContext ctx) {
    String path = ctx.normalizedPath();
    if (ctx.request().method() != HttpMethod.GET
        || path.equals("/api/v1/session")
        || path.equals("/api/v1/events")) {
      ctx.response().putHeader(HttpHeaders.CONTENT_ENCODING, HttpHeaders.IDENTITY);
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
