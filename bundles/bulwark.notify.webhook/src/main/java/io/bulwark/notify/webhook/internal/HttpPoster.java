package io.bulwark.notify.webhook.internal;

import io.bulwark.notify.api.ClientTls;
import io.bulwark.notify.api.DeliveryException;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;

/**
 * Posts JSON to one URL: HTTPS through BCJSSE trusting the configured CA (HTTP only where the
 * administrator allows plain text), HTTP/1.1, a bearer token when a credential is set, 10 s to
 * connect and 10 s to answer. A 2xx answer is delivery; 400, 413 and 422 (the receiver rejects the
 * message itself) are given up; anything else, including 401/403 (a token to correct) and 5xx, is
 * retried.
 */
final class HttpPoster {
  static final Duration TIMEOUT = Duration.ofSeconds(10);

  private final URI url;
  private final HttpClient client;
  private final byte[] bearer;
  private final String channel;

  HttpPoster(URI url, ClientTls tls, byte[] bearer, String channel) {
    this.url = url;
    HttpClient.Builder b =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(TIMEOUT)
            .followRedirects(HttpClient.Redirect.NEVER);
    if (tls != null) {
      b.sslContext(tls.context()).sslParameters(tls.parameters());
    }
    this.client = b.build();
    this.bearer = bearer == null ? null : bearer.clone();
    this.channel = channel;
  }

  /** Returns the URL posted to, for messages. */
  URI url() {
    return url;
  }

  /** Posts {@code json}; returns the answer's status on 2xx. */
  int post(String json) throws DeliveryException {
    HttpRequest.Builder r =
        HttpRequest.newBuilder(url)
            .timeout(TIMEOUT)
            .header("Content-Type", "application/json")
            .header("User-Agent", "Bulwark")
            .POST(HttpRequest.BodyPublishers.ofString(json, StandardCharsets.UTF_8));
    if (bearer != null) {
      r.header("Authorization", "Bearer " + new String(bearer, StandardCharsets.UTF_8));
    }
    HttpResponse<String> answer;
    try {
      answer = client.send(r.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new DeliveryException(
          "channel " + channel + ": posting to " + url + " failed: " + describe(e), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new DeliveryException("channel " + channel + ": interrupted", e);
    }
    int status = answer.statusCode();
    if (status / 100 == 2) {
      return status;
    }
    String body = answer.body() == null ? "" : answer.body().strip();
    if (body.length() > 300) {
      body = body.substring(0, 300) + "…";
    }
    boolean rejected = status == 400 || status == 413 || status == 422;
    throw new DeliveryException(
        "channel "
            + channel
            + ": "
            + url
            + " answered HTTP "
            + status
            + (body.isEmpty() ? "" : ": " + body)
            + (status == 401 || status == 403 ? " (check the channel's bearer token)" : ""),
        null,
        !rejected);
  }

  private static String describe(IOException e) {
    if (e instanceof java.net.ConnectException) {
      return "connection refused; is the receiver running and reachable?";
    }
    if (e instanceof java.net.http.HttpTimeoutException) {
      return "no answer within " + TIMEOUT.toSeconds() + " s";
    }
    if (e instanceof javax.net.ssl.SSLException) {
      return "TLS failed: " + e.getMessage() + " (check the CA certificate and the host name)";
    }
    return e.getMessage() == null ? e.toString() : e.getMessage();
  }

  void close() {
    if (bearer != null) {
      Arrays.fill(bearer, (byte) 0);
    }
  }
}
