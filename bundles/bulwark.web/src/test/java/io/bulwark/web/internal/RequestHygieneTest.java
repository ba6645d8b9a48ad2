package io.bulwark.web.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Requests that are wrong at the HTTP level get the status that says so, as problem details, and
 * never a 500: a body over the limit is 413, a request without Host is 400, a login that is not
 * JSON is 415, and a flood of logins from one address is 429 with the seconds to wait.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RequestHygieneTest {
  private final FleetFixture fixture = new FleetFixture();
  private Vertx vertx;
  private WebServer server;
  private ApiClient anonymous;

  @BeforeAll
  void start() {
    vertx = Vertx.vertx();
    server = fixture.start(vertx, Listener.plainHttp(new WebOptions("127.0.0.1", 0)));
    anonymous = new ApiClient(server.port(), null);
  }

  @AfterAll
  void stop() {
    server.stop();
    vertx.close().toCompletionStage().toCompletableFuture().join();
  }

  @Test
  void aBodyOverTheLimitIs413() {
    HttpResponse<String> r =
        anonymous.send(
            anonymous
                .request("/api/v1/session")
                .header("Content-Type", "application/json")
                .POST(
                    HttpRequest.BodyPublishers.ofString(
                        "{\"user\":\"" + "a".repeat(20_000) + "\"}"))
                .build());
    assertThat(r.statusCode()).isEqualTo(413);
    assertThat(r.headers().firstValue("Content-Type")).contains(ProblemResponses.CONTENT_TYPE);
    assertThat(new JsonObject(r.body()).getString("detail")).contains("16 KiB");
  }

  @Test
  void aRequestWithoutHostIs400() throws Exception {
    try (Socket s = new Socket("127.0.0.1", server.port())) {
      OutputStream out = s.getOutputStream();
      out.write("GET /api/v1/banner HTTP/1.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
      out.flush();
      s.setSoTimeout(5000);
      InputStream in = s.getInputStream();
      String head = new String(in.readNBytes(12), StandardCharsets.US_ASCII);
      assertThat(head).isEqualTo("HTTP/1.1 400");
    }
  }

  @Test
  void aLoginThatIsNotJsonIs415() {
    HttpResponse<String> r =
        anonymous.send(
            anonymous
                .request("/api/v1/session")
                .header("Content-Type", "text/plain")
                .POST(
                    HttpRequest.BodyPublishers.ofString(
                        "{\"user\":\"admin\",\"password\":\"" + FakeAccounts.PASSWORD + "\"}"))
                .build());
    assertThat(r.statusCode()).isEqualTo(415);
    assertThat(new JsonObject(r.body()).getString("detail"))
        .isEqualTo("send the body as application/json, not text/plain");
  }

  @Test
  void loginsFromOneAddressBeyondItsBudgetAre429WithTheWait() {
    int refused = 0;
    String retryAfter = null;
    for (int i = 0; i < LoginGate.BURST + 5; i++) {
      HttpResponse<String> r =
          anonymous.send(
              anonymous
                  .request("/api/v1/session")
                  .header("Content-Type", "application/json")
                  .POST(
                      HttpRequest.BodyPublishers.ofString(
                          "{\"user\":\"admin\",\"password\":\"wrong-" + i + "\"}"))
                  .build());
      if (r.statusCode() == 429) {
        refused++;
        retryAfter = r.headers().firstValue("Retry-After").orElse(null);
        assertThat(new JsonObject(r.body()).getString("detail"))
            .startsWith("too many login attempts from 127.0.0.1");
      } else {
        assertThat(r.statusCode()).isEqualTo(401);
      }
    }
    assertThat(refused).isGreaterThanOrEqualTo(4);
    assertThat(retryAfter).isNotNull();
    assertThat(Integer.parseInt(retryAfter)).isBetween(1, LoginGate.REFILL_SECONDS);
  }
}
