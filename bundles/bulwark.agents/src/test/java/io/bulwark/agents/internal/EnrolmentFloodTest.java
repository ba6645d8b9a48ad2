package io.bulwark.agents.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bulwark.api.audit.AuditOutcome;
import io.bulwark.api.audit.AuditRecord;
import io.bulwark.lib.pki.Certificates;
import io.bulwark.lib.pki.EcKeys;
import io.bulwark.lib.pki.FipsProviders;
import io.bulwark.store.internal.MapDbRecordStore;
import io.bulwark.testing.InMemorySecrets;
import io.bulwark.testing.RecordingAuditLog;
import io.bulwark.web.api.ApiProblem;
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
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The anonymous enrolment route under a flood of refused enrolments, each carrying 15.5 KB of
 * client text, served as the admin plane serves it (the body read, the handler on a worker, an
 * {@link ApiProblem} answered with its status): the route writes no audit record of its own for a
 * refusal (the admin plane counts refusals of its public routes, one record per client and minute),
 * answers 429 with Retry-After once the address has used its budget, and records the client's
 * endpoint, bounded, only for an enrolment whose token was good.
 */
class EnrolmentFloodTest {
  private static final String FLOOD_ENDPOINT = "x".repeat(15_500) + ":9401";

  private static SecureRandom random;
  private static Vertx vertx;
  @TempDir Path dir;
  private final RecordingAuditLog audit = new RecordingAuditLog();
  private final AtomicReference<Instant> now = new AtomicReference<>(Instant.now());
  private MapDbRecordStore store;
  private AgentService agents;
  private HttpServer server;
  private final HttpClient http =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(5))
          .build();

  @BeforeAll
  static void setUp() {
    random = FipsProviders.establish().getDefaultSecureRandom();
    org.bouncycastle.crypto.CryptoServicesRegistrar.setSecureRandom(random);
    vertx = Vertx.vertx();
  }

  @AfterAll
  static void tearDown() {
    vertx.close();
  }

  @BeforeEach
  void serve() throws Exception {
    store = MapDbRecordStore.inFolder(dir);
    agents = new AgentService(store, new InMemorySecrets(), random, audit, clock());
    AgentRoutes routes = new AgentRoutes(agents, audit, clock());
    Router router = Router.router(vertx);
    router.route().handler(BodyHandler.create(false).setBodyLimit(16 * 1024));
    for (ApiRoute r : routes.routes()) {
      router
          .route(r.method(), r.path())
          .blockingHandler(
              ctx -> {
                try {
                  r.handler().handle(ctx);
                } catch (RuntimeException e) {
                  ctx.fail(e);
                }
              },
              false);
    }
    router
        .route()
        .failureHandler(
            ctx -> {
              if (ctx.failure() instanceof ApiProblem p) {
                if (p.retryAfterSeconds() > 0) {
                  ctx.response().putHeader("Retry-After", Long.toString(p.retryAfterSeconds()));
                }
                ctx.response().setStatusCode(p.status()).end(p.getMessage());
              } else {
                ctx.response().setStatusCode(500).end(String.valueOf(ctx.failure()));
              }
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
    server.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    store.close();
  }

  @Test
  void aFloodOfRefusedEnrolmentsWritesNoAuditRecordAndMeetsItsBudget() throws Exception {
    String csr = Certificates.request(EcKeys.generate(random), "gpu-a07", random);
    Map<Integer, Integer> statuses = new HashMap<>();
    HttpResponse<String> last = null;
    for (int i = 0; i < 200; i++) {
      last = enrol("bwe_guess-" + i, csr, FLOOD_ENDPOINT);
      statuses.merge(last.statusCode(), 1, Integer::sum);
    }

    long bytes = audit.records.stream().mapToLong(r -> r.event().toString().length()).sum();
    assertEquals(0, audit.records.size(), "audit records (" + bytes + " bytes) for refusals");
    assertEquals(
        Map.of(403, AgentRoutes.ENROL_BURST, 429, 200 - AgentRoutes.ENROL_BURST), statuses);
    assertEquals(429, last.statusCode());
    long retryAfter = Long.parseLong(last.headers().firstValue("Retry-After").orElseThrow());
    assertTrue(retryAfter >= 1 && retryAfter <= AgentRoutes.ENROL_REFILL_SECONDS, "" + retryAfter);
  }

  @Test
  void anEnrolmentWithAGoodTokenIsRecordedWithItsEndpointAfterTheBudgetRefills() throws Exception {
    String token = agents.issueToken("gpu-a07", Duration.ofMinutes(10), "admin");
    String csr = Certificates.request(EcKeys.generate(random), "gpu-a07", random);
    for (int i = 0; i < AgentRoutes.ENROL_BURST; i++) {
      assertEquals(403, enrol("bwe_guess-" + i, csr, "10.0.0.7:9401").statusCode());
    }
    assertEquals(429, enrol(token, csr, "10.0.0.7:9401").statusCode());
    // a token whose node does not match, or an endpoint that is no host:port, is refused as well
    now.set(now.get().plus(Duration.ofMinutes(1)));
    assertEquals(400, enrol(token, csr, FLOOD_ENDPOINT).statusCode());
    assertEquals(0, audit.records.size());

    HttpResponse<String> ok = enrol(token, csr, "10.0.0.7:9401");

    assertEquals(200, ok.statusCode(), ok.body());
    assertEquals(1, audit.records.size());
    AuditRecord r = audit.records.get(0);
    assertEquals("agent.enrol", r.event().action());
    assertEquals(AuditOutcome.SUCCESS, r.event().outcome());
    assertEquals("10.0.0.7:9401", r.event().details().get("endpoint"));
  }

  private HttpResponse<String> enrol(String token, String csr, String endpoint) throws Exception {
    String body =
        new JsonObject().put("token", token).put("csr", csr).put("endpoint", endpoint).encode();
    return http.send(
        HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + server.actualPort() + "/api/v1/agents/enrol"))
            .timeout(Duration.ofSeconds(10))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private Clock clock() {
    return new Clock() {
      @Override
      public ZoneId getZone() {
        return ZoneOffset.UTC;
      }

      @Override
      public Clock withZone(ZoneId zone) {
        return this;
      }

      @Override
      public Instant instant() {
        return now.get();
      }
    };
  }
}
