package io.bulwark.web.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.bulwark.api.audit.AuditOutcome;
import io.bulwark.api.system.ConnectionCounts;
import io.bulwark.api.system.InboundConnections;
import io.bulwark.api.system.ListenerGuard;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Every API route as nobody, as each role, and through a browser session: 401 without credentials,
 * 403 for a role the route does not admit, served otherwise; CSRF on state-changing session calls;
 * the forced first password change; refused state changes audited.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AccessControlTest {
  private static final Set<String> ALL = Set.of("admin", "operator", "auditor");

  /** method, path, body, the roles the route admits (empty: public). */
  private record Route(String method, String path, String body, Set<String> roles) {}

  private static final List<Route> ROUTES =
      List.of(
          new Route("GET", "/api/v1/banner", null, Set.of()),
          new Route("GET", "/api/v1/nodes", null, ALL),
          new Route("GET", "/api/v1/nodes/gpu-node-a01", null, ALL),
          new Route("GET", "/api/v1/findings", null, ALL),
          new Route("GET", "/api/v1/capacity", null, ALL),
          new Route("GET", "/api/v1/telemetry/targets", null, ALL),
          new Route("GET", "/api/v1/health", null, ALL),
          new Route("GET", "/healthz", null, Set.of()),
          new Route("GET", "/metrics", null, ALL),
          new Route("GET", "/api/v1/session", null, ALL),
          new Route("GET", "/api/v1/audit", null, Set.of("admin", "auditor")),
          new Route("GET", "/api/v1/audit/export?format=csv", null, Set.of("admin", "auditor")),
          new Route("GET", "/api/v1/audit/public-key", null, Set.of("admin", "auditor")),
          new Route("GET", "/api/v1/audit/verify", null, Set.of("admin", "auditor")),
          new Route("GET", "/api/v1/users", null, Set.of("admin", "auditor")),
          new Route(
              "POST",
              "/api/v1/users",
              "{\"name\":\"bob\",\"role\":\"operator\",\"password\":\"x\"}",
              Set.of("admin")),
          new Route("DELETE", "/api/v1/users/nobody", null, Set.of("admin")),
          new Route("POST", "/api/v1/users/nobody/unlock", null, Set.of("admin")),
          new Route("GET", "/api/v1/tokens", null, Set.of("admin")),
          new Route("GET", "/api/v1/tls/certificate", null, ALL),
          new Route(
              "POST",
              "/api/v1/tls/certificate",
              "{\"chainPem\":\"-----BEGIN CERTIFICATE-----\",\"keyPem\":\"k\"}",
              Set.of("admin")),
          new Route(
              "POST", "/api/v1/tokens", "{\"name\":\"ci\",\"role\":\"auditor\"}", Set.of("admin")),
          new Route("DELETE", "/api/v1/tokens/tok-none", null, Set.of("admin")));

  private final FleetFixture fixture = new FleetFixture();
  private Vertx vertx;
  private WebServer server;

  @BeforeAll
  void start() {
    vertx = Vertx.vertx();
    server = fixture.start(vertx, Listener.plainHttp(new WebOptions("127.0.0.1", 0)));
  }

  @AfterAll
  void stop() {
    server.stop();
    vertx.close().toCompletionStage().toCompletableFuture().join();
  }

  @Test
  void everyRouteAnswersEachRoleAsItsTableSays() {
    for (Route route : ROUTES) {
      int anonymous = call(new ApiClient(server.port(), null), route, null, null).statusCode();
      if (route.roles().isEmpty()) {
        assertThat(anonymous).as("%s %s as nobody", route.method(), route.path()).isEqualTo(200);
        continue;
      }
      assertThat(anonymous).as("%s %s as nobody", route.method(), route.path()).isEqualTo(401);
      for (String role : ALL) {
        int status =
            call(new ApiClient(server.port(), role + "-token"), route, null, null).statusCode();
        if (route.roles().contains(role)) {
          assertThat(status)
              .as("%s %s as %s", route.method(), route.path(), role)
              .isNotIn(401, 403)
              .isLessThan(500);
        } else {
          assertThat(status).as("%s %s as %s", route.method(), route.path(), role).isEqualTo(403);
        }
      }
    }
    assertThat(
            call(new ApiClient(server.port(), "forged-token"), ROUTES.get(1), null, null)
                .statusCode())
        .isEqualTo(401);
  }

  /**
   * The walk over the router's own table: every route the plane serves now, contributed ones
   * included, refuses nobody (unless it is one of the two public ones) and every role it does not
   * name; a route nobody tested by hand cannot slip through.
   */
  @Test
  void theAddressOfEveryAuthenticatedRequestIsPassedToTheConnectionGuard() {
    List<String> authenticated = new CopyOnWriteArrayList<>();
    InboundConnections inbound =
        (port, limits) ->
            new ListenerGuard() {
              @Override
              public ConnectionCounts counts() {
                return new ConnectionCounts(0, 0, 0, 0, 0, "");
              }

              @Override
              public void authenticated(String address) {
                authenticated.add(address);
              }

              @Override
              public void close() {}
            };
    WebServer guarded =
        new FleetFixture()
            .start(vertx, Listener.plainHttp(new WebOptions("127.0.0.1", 0)), inbound);
    try {
      Route nodes = ROUTES.get(1);
      assertThat(call(new ApiClient(guarded.port(), null), nodes, null, null).statusCode())
          .isEqualTo(401);
      assertThat(
              call(new ApiClient(guarded.port(), "forged-token"), nodes, null, null).statusCode())
          .isEqualTo(401);
      assertThat(authenticated).as("after refused requests").isEmpty();

      assertThat(
              call(new ApiClient(guarded.port(), "auditor-token"), nodes, null, null).statusCode())
          .isEqualTo(200);
      assertThat(authenticated).containsExactly("127.0.0.1");
    } finally {
      guarded.stop();
    }
  }

  @Test
  void healthzSaysOkAndNothingElseWithoutCredentials() throws Exception {
    HttpResponse<String> r =
        call(
            new ApiClient(server.port(), null),
            new Route("GET", "/healthz", null, Set.of()),
            null,
            null);

    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.body()).isEqualTo("ok\n");
    assertThat(r.headers().firstValue("Cache-Control")).hasValue("no-store");
  }

  @Test
  void everyRouteOfTheRouteTableIsAuthenticatedAndRoleChecked() throws Exception {
    List<AdminRouter.RouteInfo> table = server.routeTable();
    assertThat(table).hasSizeGreaterThan(25);
    assertThat(
            table.stream()
                .filter(AdminRouter.RouteInfo::isPublic)
                .map(r -> r.method() + " " + r.path()))
        .containsExactlyInAnyOrder("GET /api/v1/banner", "POST /api/v1/session", "GET /healthz");
    for (AdminRouter.RouteInfo r : table) {
      // Public by design; a stream that does not end; a password change is for sessions (a
      // token has no password: 403 by design, walked with a session below).
      if (r.isPublic()
          || r.path().equals("/api/v1/events")
          || r.path().equals("/api/v1/session/password")) {
        continue;
      }
      String path = r.path().replaceAll(":[a-z]+", "not-there");
      String body = r.method().equals("GET") || r.method().equals("DELETE") ? null : "{}";
      Route route = new Route(r.method(), path, body, Set.of());
      assertThat(call(new ApiClient(server.port(), null), route, null, null).statusCode())
          .as("%s %s as nobody", r.method(), r.path())
          .isEqualTo(401);
      for (String role : ALL) {
        int status =
            call(new ApiClient(server.port(), role + "-token"), route, null, null).statusCode();
        if (r.roles()
            .contains(
                io.bulwark.api.security.Role.valueOf(role.toUpperCase(java.util.Locale.ROOT)))) {
          assertThat(status)
              .as("%s %s as %s", r.method(), r.path(), role)
              .isNotIn(401, 403)
              .isLessThan(500);
        } else {
          assertThat(status).as("%s %s as %s", r.method(), r.path(), role).isEqualTo(403);
        }
      }
    }
  }

  @Test
  void theRouteTableIsServedToAuditors() {
    JsonObject routes = new ApiClient(server.port(), "auditor-token").json("/api/v1/routes");
    assertThat(routes.getInteger("count")).isEqualTo(server.routeTable().size());
    assertThat(routes.getJsonArray("routes").getList().toString())
        .contains("owner=audit")
        .contains("path=/api/v1/audit/export");
    assertThat(new ApiClient(server.port(), "operator-token").get("/api/v1/routes").statusCode())
        .isEqualTo(403);
  }

  @Test
  void aBrowserSessionNeedsItsCsrfTokenToChangeState() {
    ApiClient anonymous = new ApiClient(server.port(), null);
    HttpResponse<String> wrong = login(anonymous, "admin", "not-the-password");
    assertThat(wrong.statusCode()).isEqualTo(401);
    assertThat(wrong.body()).doesNotContain("not-the-password");

    HttpResponse<String> ok = login(anonymous, "admin", FakeAccounts.PASSWORD);
    assertThat(ok.statusCode()).isEqualTo(201);
    String setCookie = ok.headers().firstValue("set-cookie").orElseThrow();
    assertThat(setCookie)
        .startsWith("bulwark_session=")
        .contains("Secure")
        .containsIgnoringCase("HttpOnly")
        .contains("SameSite=Strict");
    String cookie = setCookie.substring(0, setCookie.indexOf(';'));
    String csrf = new JsonObject(ok.body()).getString("csrfToken");

    Route create =
        ROUTES.stream()
            .filter(r -> r.path().equals("/api/v1/tokens") && r.method().equals("POST"))
            .findFirst()
            .orElseThrow();
    assertThat(call(anonymous, ROUTES.get(1), cookie, null).statusCode()).isEqualTo(200);
    assertThat(call(anonymous, create, cookie, null).statusCode())
        .as("no CSRF token")
        .isEqualTo(403);
    assertThat(call(anonymous, create, cookie, "forged").statusCode()).isEqualTo(403);
    assertThat(call(anonymous, create, cookie, csrf).statusCode()).isEqualTo(201);
    assertThat(fixture.audit.records)
        .anySatisfy(
            r -> {
              assertThat(r.event().action()).isEqualTo("api.refused");
              assertThat(r.event().outcome()).isEqualTo(AuditOutcome.DENIED);
              assertThat(r.event().target()).isEqualTo("POST /api/v1/tokens");
            });

    assertThat(
            call(anonymous, new Route("DELETE", "/api/v1/session", null, ALL), cookie, csrf)
                .statusCode())
        .isEqualTo(204);
    assertThat(call(anonymous, ROUTES.get(1), cookie, null).statusCode()).isEqualTo(401);
  }

  @Test
  void aUserWhoMustChangeThePasswordCanDoNothingElseFirst() {
    ApiClient anonymous = new ApiClient(server.port(), null);
    HttpResponse<String> ok = login(anonymous, "fresh", FakeAccounts.PASSWORD);
    String setCookie = ok.headers().firstValue("set-cookie").orElseThrow();
    String cookie = setCookie.substring(0, setCookie.indexOf(';'));
    String csrf = new JsonObject(ok.body()).getString("csrfToken");
    assertThat(new JsonObject(ok.body()).getBoolean("mustChangePassword")).isTrue();

    assertThat(call(anonymous, ROUTES.get(1), cookie, null).statusCode()).isEqualTo(403);
    Route change =
        new Route(
            "POST",
            "/api/v1/session/password",
            new JsonObject().put("current", FakeAccounts.PASSWORD).put("next", "short").encode(),
            ALL);
    HttpResponse<String> tooShort = call(anonymous, change, cookie, csrf);
    assertThat(tooShort.statusCode()).isEqualTo(400);
    assertThat(tooShort.body()).contains("at least 15 characters");
    Route good =
        new Route(
            "POST",
            "/api/v1/session/password",
            new JsonObject()
                .put("current", FakeAccounts.PASSWORD)
                .put("next", "Another-Long-Passphrase-7")
                .encode(),
            ALL);
    assertThat(call(anonymous, good, cookie, csrf).statusCode()).isEqualTo(204);
    assertThat(call(anonymous, ROUTES.get(1), cookie, null).statusCode()).isEqualTo(200);
  }

  @Test
  void administrationRoutesDoWhatTheySay() {
    ApiClient admin = new ApiClient(server.port());
    HttpResponse<String> export = admin.get("/api/v1/audit/export?format=jsonl");
    assertThat(export.statusCode()).isEqualTo(200);
    assertThat(export.body())
        .isEqualTo(
            new String(FakeAdministration.Export.BODY, java.nio.charset.StandardCharsets.UTF_8));
    assertThat(export.headers().firstValue("x-bulwark-signature")).hasValue("AQID");
    assertThat(admin.get("/api/v1/audit/export?format=pdf").statusCode()).isEqualTo(400);
    assertThat(admin.get("/api/v1/audit/verify").body()).contains("\"intact\":true");
    assertThat(admin.get("/api/v1/tls/certificate").body()).contains("CN=bulwark-test");
    assertThat(fixture.audit.records)
        .anySatisfy(r -> assertThat(r.event().action()).isEqualTo("audit.export"));
  }

  @Test
  void tokensAreListedWithTheirStateAndNeverTheirSecret() {
    java.time.Instant now = java.time.Instant.now();
    fixture.tokens.save(
        new io.bulwark.api.security.ApiToken(
            "tok-ci",
            "ci",
            io.bulwark.api.security.Role.AUDITOR,
            "hmac$secret-hash",
            "admin",
            now.minusSeconds(60),
            now.plusSeconds(3600),
            false));
    fixture.tokens.save(
        new io.bulwark.api.security.ApiToken(
            "tok-old",
            "old",
            io.bulwark.api.security.Role.ADMIN,
            "hmac$other",
            "admin",
            now.minusSeconds(7200),
            now.minusSeconds(3600),
            false));
    fixture.tokens.save(
        new io.bulwark.api.security.ApiToken(
            "tok-gone",
            "gone",
            io.bulwark.api.security.Role.OPERATOR,
            "hmac$third",
            "admin",
            now.minusSeconds(120),
            now.plusSeconds(3600),
            true));

    HttpResponse<String> list = new ApiClient(server.port()).get("/api/v1/tokens");

    assertThat(list.statusCode()).isEqualTo(200);
    assertThat(list.body()).doesNotContain("hmac$");
    var tokens = new JsonObject(list.body()).getJsonArray("tokens");
    java.util.Map<String, String> states = new java.util.HashMap<>();
    for (int i = 0; i < tokens.size(); i++) {
      states.put(
          tokens.getJsonObject(i).getString("id"), tokens.getJsonObject(i).getString("state"));
    }
    assertThat(states)
        .containsEntry("tok-ci", "active")
        .containsEntry("tok-old", "expired")
        .containsEntry("tok-gone", "revoked");
  }

  @Test
  void unlockingAUserLiftsTheLockAndIsAudited() {
    java.time.Instant now = java.time.Instant.now();
    fixture.users.save(
        new io.bulwark.api.security.UserAccount(
            "carol",
            io.bulwark.api.security.Role.OPERATOR,
            "hash",
            false,
            now,
            List.of(now.minusSeconds(5)),
            now.plusSeconds(900),
            false));
    ApiClient admin = new ApiClient(server.port());
    assertThat(admin.get("/api/v1/users").body()).contains("\"locked\":true");

    HttpResponse<String> unlocked = admin.send("POST", "/api/v1/users/carol/unlock");

    assertThat(unlocked.statusCode()).isEqualTo(200);
    assertThat(new JsonObject(unlocked.body()).getBoolean("locked")).isFalse();
    var stored = fixture.users.user("carol").orElseThrow();
    assertThat(stored.lockedUntil()).isNull();
    assertThat(stored.recentFailures()).isEmpty();
    assertThat(stored.passwordHash()).isEqualTo("hash");
    assertThat(fixture.audit.records)
        .anySatisfy(
            r -> {
              assertThat(r.event().action()).isEqualTo("user.unlock");
              assertThat(r.event().target()).isEqualTo("carol");
            });
    assertThat(admin.send("POST", "/api/v1/users/nobody/unlock").statusCode()).isEqualTo(404);
  }

  @Test
  void malformedLoginBodiesGetProblemDetails() {
    ApiClient anonymous = new ApiClient(server.port(), null);
    HttpResponse<String> r =
        anonymous.send(
            anonymous
                .request("/api/v1/session")
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{not json"))
                .build());
    assertThat(r.statusCode()).isEqualTo(400);
    assertThat(r.headers().firstValue("content-type")).hasValue(ProblemResponses.CONTENT_TYPE);

    HttpResponse<String> wrongType =
        anonymous.send(
            anonymous
                .request("/api/v1/session")
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"user\":5,\"password\":\"x\"}"))
                .build());
    assertThat(wrongType.statusCode()).isEqualTo(400);
    assertThat(wrongType.body()).contains("'user' must be a string");
    ApiClient admin = new ApiClient(server.port());
    HttpResponse<String> numericName =
        admin.send(
            admin
                .request("/api/v1/tokens")
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"name\":7,\"role\":\"auditor\"}"))
                .build());
    assertThat(numericName.statusCode()).isEqualTo(400);
  }

  private static HttpResponse<String> login(ApiClient client, String user, String password) {
    return call(
        client,
        new Route(
            "POST",
            "/api/v1/session",
            new JsonObject().put("user", user).put("password", password).encode(),
            Set.of()),
        null,
        null);
  }

  private static HttpResponse<String> call(
      ApiClient client, Route route, String cookie, String csrf) {
    HttpRequest.Builder b = client.request(route.path());
    if (cookie != null) {
      b.header("Cookie", cookie);
    }
    if (csrf != null) {
      b.header(AccessControl.CSRF_HEADER, csrf);
    }
    if (route.body() != null) {
      b.header("Content-Type", "application/json");
    }
    b.method(
        route.method(),
        route.body() == null
            ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofString(route.body()));
    return client.send(b.build());
  }
}
