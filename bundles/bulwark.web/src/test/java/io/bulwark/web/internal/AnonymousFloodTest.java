package io.bulwark.web.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.bulwark.api.audit.AuditEvent;
import io.bulwark.api.audit.AuditOutcome;
import io.bulwark.api.audit.AuditRecord;
import io.bulwark.web.api.ApiProblem;
import io.bulwark.web.api.ApiRequest;
import io.bulwark.web.api.ApiRoute;
import io.bulwark.web.api.RouteContributor;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Every route the admin plane answers without credentials, and every other one as nobody, flooded
 * with bad requests that carry as much client text as the plane takes (15.5 KB bodies, 2,000-
 * character path segments, bodies malformed, too big or of the wrong type): the audit log grows by
 * at most two records per client and minute, each a few hundred bytes, however many requests and
 * however much text. The agents' enrolment, a public route that checks its one-time token itself,
 * is played by a stand-in that refuses as that route does.
 */
class AnonymousFloodTest {
  /** What one client may cost the audit log in a minute of refusals, in bytes. */
  static final int BUDGET_PER_CLIENT_MINUTE = 2 * 1024;

  /** The bytes of a record besides its event: sequence, time, previous hash, hash and HMAC. */
  private static final int RECORD_OVERHEAD = 300;

  private static final String LONG = "p".repeat(2000);
  private static final String BIG_TEXT = "x".repeat(15_500);

  private final FleetFixture fixture = new FleetFixture();
  private Vertx vertx;
  private WebServer server;

  private record Routes(String name, List<ApiRoute> routes) implements RouteContributor {}

  @BeforeEach
  void start() {
    vertx = Vertx.vertx();
    server = fixture.start(vertx);
    fixture.contributions.addRoutes(
        new Routes(
            "agents",
            List.of(
                ApiRoute.post(
                    AccessControl.AGENT_ENROLMENT,
                    ApiRoute.ANY_ROLE,
                    ctx -> {
                      String endpoint = ApiRequest.text(ApiRequest.body(ctx), "endpoint", "");
                      throw ApiProblem.forbidden(
                          "the enrolment token is unknown, used or expired (" + endpoint + ")");
                    }))));
  }

  @AfterEach
  void stop() {
    server.stop();
    vertx.close().toCompletionStage().toCompletableFuture().join();
  }

  @Test
  void aFloodOfEveryAnonymousRequestCostsTheAuditLogAFewHundredBytes() throws Exception {
    List<HttpRequest> flood = new ArrayList<>();
    ApiClient nobody = new ApiClient(server.port(), null);
    for (int round = 0; round < 5; round++) {
      flood.add(post(nobody, "/api/v1/" + LONG + round, big(), "application/json"));
      for (AdminRouter.RouteInfo r : server.routeTable()) {
        String path = r.path().replaceAll(":[a-z]+", LONG);
        flood.add(post(nobody, path, big(), "application/json", r.method()));
        flood.add(post(nobody, path, "{not json" + BIG_TEXT, "application/json", r.method()));
        flood.add(post(nobody, path, BIG_TEXT, "text/plain", r.method()));
        flood.add(post(nobody, path, BIG_TEXT + BIG_TEXT, "application/json", r.method()));
      }
    }
    Map<Integer, Integer> statuses = send(flood);
    awaitFirstRecord();
    server.refusals().flushAll();

    int bytes = fixture.audit.records.stream().mapToInt(AnonymousFloodTest::bytes).sum();
    System.out.printf(
        "anonymous flood of %d requests from one client: answers %s; %d audit records, %d bytes%n",
        flood.size(), statuses, fixture.audit.records.size(), bytes);
    assertThat(statuses.keySet()).as("answers").allMatch(s -> s < 500);
    assertThat(fixture.audit.records)
        .as("records of the flood")
        .hasSizeLessThanOrEqualTo(2)
        .allSatisfy(r -> assertThat(r.event().action()).isEqualTo(RefusalDigest.ACTION));
    assertThat(bytes).as("audit bytes of the flood").isLessThan(BUDGET_PER_CLIENT_MINUTE);
  }

  @Test
  void refusedEnrolmentsAreCountedOneRecordAtOnceAndOneWithTheCount() throws Exception {
    ApiClient nobody = new ApiClient(server.port(), null);
    List<HttpRequest> flood = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      flood.add(post(nobody, AccessControl.AGENT_ENROLMENT, big(), "application/json"));
    }
    assertThat(send(flood)).isEqualTo(Map.of(403, 100));
    awaitFirstRecord();
    server.refusals().flushAll();

    assertThat(fixture.audit.records).hasSize(2);
    AuditEvent first = fixture.audit.records.get(0).event();
    assertThat(first.action()).isEqualTo(RefusalDigest.ACTION);
    assertThat(first.outcome()).isEqualTo(AuditOutcome.DENIED);
    assertThat(first.actor()).isEqualTo("anonymous");
    assertThat(first.target()).isEqualTo("POST " + AccessControl.AGENT_ENROLMENT);
    assertThat(first.details().get("reason"))
        .startsWith("403: the enrolment token is unknown, used or expired (xxx")
        .hasSizeLessThanOrEqualTo(RefusalDigest.MAX_TEXT + 40);
    assertThat(fixture.audit.records.get(1).event().details()).containsEntry("count", "99");
    assertThat(fixture.audit.records.stream().mapToInt(AnonymousFloodTest::bytes).sum())
        .isLessThan(BUDGET_PER_CLIENT_MINUTE);
  }

  /** A body as the flood sends it: every field a route might read, one of them 15.5 KB long. */
  private static String big() {
    return new JsonObject()
        .put("token", "bwe_guess")
        .put("csr", "-----BEGIN CERTIFICATE REQUEST-----")
        .put("endpoint", BIG_TEXT)
        .put("user", "admin")
        .put("password", "guess")
        .encode();
  }

  private static HttpRequest post(ApiClient client, String path, String body, String type) {
    return post(client, path, body, type, "POST");
  }

  private static HttpRequest post(
      ApiClient client, String path, String body, String type, String method) {
    return client
        .request(path)
        .header("Content-Type", type)
        .method(method, HttpRequest.BodyPublishers.ofString(body))
        .build();
  }

  /** Sends the requests, 16 at a time; returns how many got each status. */
  private static Map<Integer, Integer> send(List<HttpRequest> requests) throws Exception {
    ApiClient any = new ApiClient(0, null);
    Semaphore inFlight = new Semaphore(16);
    Map<Integer, Integer> statuses = new TreeMap<>();
    List<CompletableFuture<HttpResponse<String>>> answers = new ArrayList<>();
    for (HttpRequest r : requests) {
      inFlight.acquire();
      answers.add(
          any.http()
              .sendAsync(r, HttpResponse.BodyHandlers.ofString())
              .whenComplete((a, e) -> inFlight.release()));
    }
    for (CompletableFuture<HttpResponse<String>> a : answers) {
      statuses.merge(a.get().statusCode(), 1, Integer::sum);
    }
    return statuses;
  }

  /** Waits until the first refusal is recorded: it is written off the event loop. */
  private void awaitFirstRecord() throws InterruptedException {
    long deadline = System.nanoTime() + 5_000_000_000L;
    while (fixture.audit.records.isEmpty() && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
  }

  /** The bytes {@code r} takes in the audit log, about. */
  static int bytes(AuditRecord r) {
    AuditEvent e = r.event();
    return new JsonObject()
            .put("actor", e.actor())
            .put("source", e.source())
            .put("action", e.action())
            .put("target", e.target())
            .put("outcome", e.outcome().name())
            .put("details", new JsonObject(new java.util.HashMap<String, Object>(e.details())))
            .encode()
            .length()
        + RECORD_OVERHEAD;
  }
}
