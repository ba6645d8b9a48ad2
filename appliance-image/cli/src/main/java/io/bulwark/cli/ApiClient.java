package io.bulwark.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.UnknownHostException;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.channels.UnresolvedAddressException;
import java.nio.charset.StandardCharsets;
import java.security.cert.CertificateException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLParameters;

/**
 * Talks to the appliance's JSON API over HTTPS (HTTP/1.1, TLS 1.3 or 1.2 through BCJSSE) with an
 * API token sent as {@code Authorization: Bearer …}. An answer other than 2xx becomes a {@link
 * Refused} with the problem's title and detail; a connection that cannot be made or a certificate
 * that is not trusted becomes an {@link Unreachable}.
 */
final class ApiClient {
  /** The TLS versions offered, newest first, as the appliance serves them. */
  static final String[] PROTOCOLS = {"TLSv1.3", "TLSv1.2"};

  static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);
  static final Duration ANSWER_TIMEOUT = Duration.ofSeconds(60);

  /** The largest answer read into memory. */
  static final int MAX_ANSWER_BYTES = 64 << 20;

  private final URI base;
  private final String token;
  private final HttpClient http;
  private final String userAgent;

  /** One answer of the API, read whole. */
  record Answer(int status, String contentType, byte[] body) {
    /** Returns the body as UTF-8 text. */
    String text() {
      return new String(body, StandardCharsets.UTF_8);
    }

    /** Returns the body parsed as JSON. */
    Object json() throws Refused {
      try {
        return Json.parse(text());
      } catch (Json.SyntaxException e) {
        throw new Refused(
            status, "Unexpected answer", "the answer is not JSON (" + e.getMessage() + ")");
      }
    }
  }

  /** The API answered, but not with success: its status and, from the problem, title and detail. */
  static final class Refused extends Exception {
    private static final long serialVersionUID = 1L;
    private final int status;
    private final String title;
    private final String detail;

    Refused(int status, String title, String detail) {
      super(status + " " + title + (detail.isEmpty() ? "" : ": " + detail));
      this.status = status;
      this.title = title;
      this.detail = detail;
    }

    int status() {
      return status;
    }

    String title() {
      return title;
    }

    String detail() {
      return detail;
    }
  }

  /** The appliance could not be reached, or its certificate was not trusted. */
  static final class Unreachable extends Exception {
    private static final long serialVersionUID = 1L;
    private final boolean tls;

    Unreachable(String message, boolean tls, Throwable cause) {
      super(message, cause);
      this.tls = tls;
    }

    /** Returns true if the TLS handshake failed (as opposed to the connection). */
    boolean tls() {
      return tls;
    }
  }

  /**
   * A client of the API at {@code base} (an https URL, perhaps with a path prefix).
   *
   * @param ssl a context that verifies the appliance's certificate
   */
  ApiClient(URI base, String token, SSLContext ssl, String userAgent) {
    this.base = base;
    this.token = token;
    this.userAgent = userAgent;
    SSLParameters parameters = ssl.getDefaultSSLParameters();
    parameters.setProtocols(PROTOCOLS);
    parameters.setEndpointIdentificationAlgorithm("HTTPS");
    this.http =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .sslContext(ssl)
            .sslParameters(parameters)
            .connectTimeout(CONNECT_TIMEOUT)
            .followRedirects(HttpClient.Redirect.NEVER)
            .build();
  }

  /** Returns {@code GET path?query}, whatever its status. */
  Answer get(String path, Map<String, String> query) throws Unreachable {
    return read(exchange("GET", path, query, null, "application/json"));
  }

  /** Returns {@code POST path} with the JSON body, whatever its status. */
  Answer post(String path, Map<String, Object> body) throws Unreachable {
    return read(exchange("POST", path, Map.of(), body, "application/json"));
  }

  /** Returns {@code DELETE path}, whatever its status. */
  Answer delete(String path) throws Unreachable {
    return read(exchange("DELETE", path, Map.of(), null, "application/json"));
  }

  /**
   * Copies the body of {@code GET path?query} to {@code to} if it is a success.
   *
   * @return the number of bytes copied
   * @throws Refused if the answer is not a success (nothing is copied)
   */
  long download(String path, Map<String, String> query, String accept, OutputStream to)
      throws Unreachable, Refused, IOException {
    HttpResponse<InputStream> response = exchange("GET", path, query, null, accept);
    if (response.statusCode() / 100 != 2) {
      throw refusal(read(response));
    }
    try (InputStream in = response.body()) {
      byte[] buffer = new byte[64 * 1024];
      long total = 0;
      int n;
      while (true) {
        try {
          n = in.read(buffer);
        } catch (IOException e) {
          throw unreachable(e);
        }
        if (n < 0) {
          return total;
        }
        to.write(buffer, 0, n);
        total += n;
      }
    }
  }

  /** Returns the answer if it is a success. */
  static Answer success(Answer answer) throws Refused {
    if (answer.status() / 100 != 2) {
      throw refusal(answer);
    }
    return answer;
  }

  /** Returns the refusal an answer other than 2xx stands for, from its problem if it has one. */
  static Refused refusal(Answer answer) {
    int status = answer.status();
    String title = reason(status);
    String detail = "";
    String type = answer.contentType().toLowerCase(Locale.ROOT);
    if (type.startsWith("application/problem+json") || type.startsWith("application/json")) {
      try {
        Object problem = Json.parse(answer.text());
        if (Fields.has(problem, "title")) {
          title = Fields.text(problem, "title");
        }
        detail = Fields.text(problem, "detail");
      } catch (Json.SyntaxException e) {
        // Not a problem after all: the status says it.
      }
    } else if (status / 100 == 3) {
      detail = "the appliance redirects elsewhere; check --url";
    } else if (type.startsWith("text/plain")) {
      String text = Text.clean(answer.text().strip());
      detail = text.length() > 200 ? text.substring(0, 200) + "…" : text;
    }
    return new Refused(status, title, detail);
  }

  private HttpResponse<InputStream> exchange(
      String method,
      String path,
      Map<String, String> query,
      Map<String, Object> body,
      String accept)
      throws Unreachable {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(uri(path, query))
            .timeout(ANSWER_TIMEOUT)
            .header("Authorization", "Bearer " + token)
            .header("Accept", accept + ", application/problem+json")
            .header("User-Agent", userAgent);
    if (body != null) {
      request
          .header("Content-Type", "application/json")
          .method(method, HttpRequest.BodyPublishers.ofString(Json.write(body)));
    } else {
      request.method(method, HttpRequest.BodyPublishers.noBody());
    }
    try {
      return http.send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
    } catch (IOException e) {
      throw unreachable(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new Unreachable("interrupted while talking to " + where(), false, e);
    }
  }

  private Answer read(HttpResponse<InputStream> response) throws Unreachable {
    String type = response.headers().firstValue("Content-Type").orElse("");
    try (InputStream in = response.body()) {
      byte[] body = in.readNBytes(MAX_ANSWER_BYTES + 1);
      if (body.length > MAX_ANSWER_BYTES) {
        throw new Unreachable(
            "the answer of " + where() + " is larger than " + (MAX_ANSWER_BYTES >> 20) + " MiB",
            false,
            null);
      }
      return new Answer(response.statusCode(), type, body);
    } catch (IOException e) {
      throw unreachable(e);
    }
  }

  /** Returns the URI of {@code path} (starting with /api/) under the base, with the query. */
  URI uri(String path, Map<String, String> query) {
    StringBuilder uri = new StringBuilder();
    uri.append(base.getScheme()).append("://").append(base.getRawAuthority());
    String prefix = base.getRawPath() == null ? "" : base.getRawPath();
    while (prefix.endsWith("/")) {
      prefix = prefix.substring(0, prefix.length() - 1);
    }
    uri.append(prefix).append(path);
    char separator = '?';
    for (Map.Entry<String, String> p : new LinkedHashMap<>(query).entrySet()) {
      uri.append(separator).append(encode(p.getKey())).append('=').append(encode(p.getValue()));
      separator = '&';
    }
    return URI.create(uri.toString());
  }

  /** Returns {@code value} percent-encoded for a path segment or a query value. */
  static String encode(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
  }

  private String where() {
    return base.getHost() + ":" + (base.getPort() < 0 ? 443 : base.getPort());
  }

  private Unreachable unreachable(IOException e) {
    PinnedCertificate.MismatchException pin = cause(e, PinnedCertificate.MismatchException.class);
    if (pin != null) {
      return new Unreachable(
          "TLS with " + where() + " failed: " + pin.getMessage() + "; check --fingerprint",
          true,
          e);
    }
    CertificateException certificate = cause(e, CertificateException.class);
    SSLException ssl = cause(e, SSLException.class);
    if (certificate != null || ssl != null) {
      String reason = message(certificate != null ? certificate : ssl);
      return new Unreachable(
          "TLS with "
              + where()
              + " failed: "
              + reason
              + "; check --ca/--fingerprint (the CA that issued the appliance's certificate, or"
              + " the fingerprint its console prints) and that --url names the appliance",
          true,
          e);
    }
    if (cause(e, HttpConnectTimeoutException.class) != null) {
      return new Unreachable(
          "cannot connect to "
              + where()
              + ": no answer within "
              + CONNECT_TIMEOUT.toSeconds()
              + " s; check --url and that the appliance is up",
          false,
          e);
    }
    if (cause(e, HttpTimeoutException.class) != null) {
      return new Unreachable(
          where() + " did not answer within " + ANSWER_TIMEOUT.toSeconds() + " s", false, e);
    }
    if (cause(e, UnresolvedAddressException.class) != null
        || cause(e, UnknownHostException.class) != null) {
      return new Unreachable(
          "cannot connect to " + where() + ": unknown host " + base.getHost() + "; check --url",
          false,
          e);
    }
    if (cause(e, ConnectException.class) != null) {
      return new Unreachable(
          "cannot connect to "
              + where()
              + ": "
              + (e.getMessage() == null ? "connection refused" : e.getMessage())
              + "; check --url and that the appliance is up",
          false,
          e);
    }
    return new Unreachable("cannot talk to " + where() + ": " + message(e), false, e);
  }

  private static String message(Throwable t) {
    // The innermost message is the reason; the outer ones wrap it.
    String message = null;
    for (Throwable c = t; c != null; c = c.getCause()) {
      if (c.getMessage() != null && !c.getMessage().isBlank()) {
        message = c.getMessage();
      }
      if (c.getCause() == c) {
        break;
      }
    }
    return Text.clean(message == null ? t.getClass().getSimpleName() : message);
  }

  private static <T extends Throwable> T cause(Throwable t, Class<T> type) {
    int depth = 0;
    for (Throwable c = t; c != null && depth < 32; c = c.getCause(), depth++) {
      if (type.isInstance(c)) {
        return type.cast(c);
      }
    }
    return null;
  }

  /** Returns the standard phrase of an HTTP status. */
  static String reason(int status) {
    return switch (status) {
      case 400 -> "Bad request";
      case 401 -> "Unauthorized";
      case 403 -> "Forbidden";
      case 404 -> "Not found";
      case 405 -> "Method not allowed";
      case 409 -> "Conflict";
      case 413 -> "Request body too large";
      case 415 -> "Unsupported media type";
      case 429 -> "Too many requests";
      case 500 -> "Internal error";
      case 502 -> "Bad gateway";
      case 503 -> "Service unavailable";
      case 504 -> "Gateway timeout";
      default -> status / 100 == 3 ? "Redirect" : "HTTP " + status;
    };
  }
}
