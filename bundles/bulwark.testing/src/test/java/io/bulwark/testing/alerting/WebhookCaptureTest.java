package io.bulwark.testing.alerting;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bulwark.testing.alerting.WebhookCapture.Captured;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class WebhookCaptureTest {
  private final HttpClient http =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .proxy(HttpClient.Builder.NO_PROXY)
          .build();
  private final WebhookCapture capture = WebhookCapture.start();

  @AfterEach
  void close() {
    capture.close();
  }

  @Test
  void recordsEachRequestAndAnswers200() throws Exception {
    HttpResponse<String> response = post(capture.url("/hooks/a?x=1"), "{\"a\":1}");

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.body()).isEmpty();
    List<Captured> requests = capture.awaitRequests(1, Duration.ofSeconds(5));
    assertThat(requests).hasSize(1);
    Captured request = requests.get(0);
    assertThat(request.method()).isEqualTo("POST");
    assertThat(request.path()).isEqualTo("/hooks/a");
    assertThat(request.query()).isEqualTo("x=1");
    assertThat(request.body()).isEqualTo("{\"a\":1}");
    assertThat(request.header("CONTENT-TYPE")).hasValue("application/json");
    assertThat(request.header("X-Missing")).isEmpty();
    assertThat(capture.url("/x").toString()).isEqualTo("http://127.0.0.1:" + capture.port() + "/x");

    capture.clear();
    assertThat(capture.requests()).isEmpty();
  }

  @Test
  void answersTheStatusAndBodyItIsGiven() throws Exception {
    capture.respondWith(500, "boom");
    HttpResponse<String> failed = post(capture.url("/a"), "1");
    assertThat(failed.statusCode()).isEqualTo(500);
    assertThat(failed.body()).isEqualTo("boom");

    capture.respondWith(204);
    assertThat(post(capture.url("/a"), "2").statusCode()).isEqualTo(204);
    assertThat(capture.requests()).extracting(Captured::body).containsExactly("1", "2");
  }

  @Test
  void holdsRequestsOpenWhenToldToHangAndReleasesThemWhenToldToAnswer() throws Exception {
    capture.hang();
    assertThatThrownBy(() -> post(capture.url("/slow"), "held", Duration.ofMillis(300)))
        .isInstanceOf(HttpTimeoutException.class);
    assertThat(capture.awaitRequests(1, Duration.ofSeconds(5)))
        .extracting(Captured::body)
        .containsExactly("held");

    CompletableFuture<HttpResponse<String>> waiting =
        http.sendAsync(
            request(capture.url("/slow"), "later", Duration.ofSeconds(10)),
            HttpResponse.BodyHandlers.ofString());
    capture.awaitRequests(2, Duration.ofSeconds(5));
    assertThat(waiting).isNotDone();
    capture.respondWith(202);
    assertThat(waiting.get(5, TimeUnit.SECONDS).statusCode()).isEqualTo(202);
  }

  @Test
  void dropsConnectionsWithoutAnAnswerWhenToldTo() {
    capture.dropConnections();
    assertThatThrownBy(() -> post(capture.url("/gone"), "x")).isInstanceOf(IOException.class);
    assertThat(capture.awaitRequests(1, Duration.ofSeconds(5)).get(0).body()).isEqualTo("x");
  }

  @Test
  void saysWhatArrivedWhenTooFewRequestsDid() throws Exception {
    post(capture.url("/one"), "only");
    assertThatThrownBy(() -> capture.awaitRequests(2, Duration.ofMillis(200)))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("expected 2 request(s)")
        .hasMessageContaining("got 1")
        .hasMessageContaining("POST /one only");
  }

  @Test
  void rejectsWhatItCannotServe() {
    assertThatThrownBy(() -> capture.url("hook"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("\"/hook\"");
    assertThatThrownBy(() -> capture.respondWith(42))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("between 100 and 599");
  }

  @Test
  void freesItsPortOnClose() {
    URI url = capture.url("/a");
    capture.close();
    capture.close();
    assertThatThrownBy(() -> post(url, "x")).isInstanceOf(IOException.class);
  }

  private HttpResponse<String> post(URI url, String body) throws Exception {
    return post(url, body, Duration.ofSeconds(10));
  }

  private HttpResponse<String> post(URI url, String body, Duration timeout) throws Exception {
    return http.send(request(url, body, timeout), HttpResponse.BodyHandlers.ofString());
  }

  private static HttpRequest request(URI url, String body, Duration timeout) {
    return HttpRequest.newBuilder(url)
        .timeout(timeout)
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(body))
        .build();
  }
}
