package io.bulwark.web.internal;

import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** A plain HTTP/1.1 client on 127.0.0.1 for the web tests, with a timeout on every request. */
final class ApiClient {
  static final Duration TIMEOUT = Duration.ofSeconds(10);

  private final HttpClient client =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .proxy(HttpClient.Builder.NO_PROXY)
          .connectTimeout(TIMEOUT)
          .build();
  private final int port;
  private final String bearer;

  /** A client that authenticates as an admin with an API token. */
  ApiClient(int port) {
    this(port, "admin-token");
  }

  /** A client that sends {@code bearer} as its API token, or no credentials if null. */
  ApiClient(int port, String bearer) {
    this.port = port;
    this.bearer = bearer;
  }

  HttpRequest.Builder request(String path) {
    HttpRequest.Builder b = HttpRequest.newBuilder(uri(path)).timeout(TIMEOUT);
    return bearer == null ? b : b.header("Authorization", "Bearer " + bearer);
  }

  URI uri(String path) {
    return URI.create("http://127.0.0.1:" + port + path);
  }

  HttpResponse<String> get(String path) {
    return send(request(path).GET().build());
  }

  HttpResponse<String> send(String method, String path) {
    return send(request(path).method(method, HttpRequest.BodyPublishers.noBody()).build());
  }

  HttpResponse<String> send(HttpRequest request) {
    try {
      return client.send(request, HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  HttpClient http() {
    return client;
  }

  /** GETs the path, checks it answered 200 with JSON, and returns the body. */
  JsonObject json(String path) {
    HttpResponse<String> response = get(path);
    if (response.statusCode() != 200) {
      throw new AssertionError(
          "GET " + path + " answered " + response.statusCode() + ": " + response.body());
    }
    String type = response.headers().firstValue("Content-Type").orElse("");
    if (!type.startsWith("application/json")) {
      throw new AssertionError("GET " + path + " answered Content-Type " + type);
    }
    return new JsonObject(response.body());
  }
}
