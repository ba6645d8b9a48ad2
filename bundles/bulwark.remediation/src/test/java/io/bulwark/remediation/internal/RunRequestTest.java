package io.bulwark.remediation.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.bulwark.api.remediation.PolicyMode;
import io.bulwark.api.security.Principal;
import io.bulwark.api.security.Role;
import io.bulwark.store.internal.MapDbRecordStore;
import io.bulwark.testing.RecordingAuditLog;
import io.bulwark.web.api.ApiProblem;
import io.bulwark.web.api.ApiRequest;
import io.bulwark.web.api.ApiRoute;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.handler.BodyHandler;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run request (start, cancel) is read strictly, over HTTP through the remediation routes: a field
 * the request does not take is refused with 400 naming it, before anything is started or audited.
 */
class RunRequestTest {
  @TempDir Path dir;
  private final RecordingAuditLog audit = new RecordingAuditLog();
  private final HttpClient client =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(5))
          .build();
  private MapDbRecordStore store;
  private Vertx vertx;
  private HttpServer server;

  @BeforeEach
  void serve() throws Exception {
    store = MapDbRecordStore.inFolder(dir);
    RemediationEngine engine =
        new RemediationEngine(
            store,
            new Schedulers(),
            audit,
            Clock.systemUTC(),
            Runnable::run,
            PolicyMode.DRY_RUN,
            0,
            100);
    RemediationRoutes routes = new RemediationRoutes(engine, new Schedulers(), audit);
    vertx = Vertx.vertx();
    Router router = Router.router(vertx);
    router.route().handler(BodyHandler.create());
    router
        .route()
        .handler(
            ctx -> {
              ctx.put(
                  ApiRequest.CALLER, new Principal("ops1", Role.OPERATOR, Principal.Kind.TOKEN));
              ctx.next();
            });
    for (ApiRoute r : routes.routes()) {
      router.route(r.method(), r.path()).blockingHandler(r.handler());
    }
    router
        .route()
        .failureHandler(
            ctx -> {
              Throwable t = ctx.failure();
              int status = t instanceof ApiProblem p ? p.status() : 500;
              ctx.response()
                  .setStatusCode(status)
                  .end(new JsonObject().put("detail", String.valueOf(t.getMessage())).encode());
            });
    server =
        vertx
            .createHttpServer()
            .requestHandler(router)
            .listen(0, "127.0.0.1")
            .toCompletionStage()
            .toCompletableFuture()
            .get(10, TimeUnit.SECONDS);
  }

  @AfterEach
  void stop() throws Exception {
    vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    store.close();
  }

  private HttpResponse<String> post(String path, String body) throws Exception {
    return client.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.actualPort() + path))
            .timeout(Duration.ofSeconds(10))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void aStartWithAFieldItDoesNotTakeIsRefusedNamingTheField() throws Exception {
    HttpResponse<String> r =
        post(
            "/api/v1/remediation/runs",
            "{\"finding\":\"f-1\",\"policy\":\"xid-reset\",\"mode\":\"automatic\",\"force\":true}");

    assertThat(r.statusCode()).as(r.body()).isEqualTo(400);
    assertThat(new JsonObject(r.body()).getString("detail"))
        .contains("unknown fields 'force', 'mode'")
        .contains("finding, policy");
    assertThat(audit.records).isEmpty();
  }

  @Test
  void aStartWithOnlyItsFieldsIsReadAndGoesOnToTheEngine() throws Exception {
    HttpResponse<String> r = post("/api/v1/remediation/runs", "{\"finding\":\"f-1\"}");

    assertThat(r.statusCode()).as(r.body()).isEqualTo(404);
    assertThat(new JsonObject(r.body()).getString("detail")).contains("no finding f-1");
  }

  @Test
  void aCancelWithAFieldItDoesNotTakeIsRefusedNamingTheField() throws Exception {
    HttpResponse<String> r =
        post("/api/v1/remediation/runs/r-1/cancel", "{\"reason\":\"done\",\"resaon\":\"x\"}");

    assertThat(r.statusCode()).as(r.body()).isEqualTo(400);
    assertThat(new JsonObject(r.body()).getString("detail"))
        .contains("unknown field 'resaon'")
        .contains("takes reason");
  }

  @Test
  void anApprovalWithAFieldItDoesNotTakeIsRefusedNamingTheField() throws Exception {
    HttpResponse<String> r =
        post("/api/v1/remediation/runs/r-1/approve", "{\"step\":2,\"jobsMayBeKiled\":true}");

    assertThat(r.statusCode()).as(r.body()).isEqualTo(400);
    assertThat(new JsonObject(r.body()).getString("detail"))
        .contains("unknown field 'jobsMayBeKiled'")
        .contains("jobsMayBeKilled, step");
  }
}
