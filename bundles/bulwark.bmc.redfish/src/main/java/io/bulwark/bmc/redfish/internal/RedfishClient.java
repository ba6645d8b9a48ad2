package io.bulwark.bmc.redfish.internal;

import io.bulwark.api.bmc.BmcException;
import io.bulwark.api.bmc.BmcException.Kind;
import io.bulwark.api.machine.BmcEndpoint;
import io.bulwark.lib.pki.PinnedTrust;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLParameters;

/**
 * HTTP to one BMC's Redfish service: HTTPS/1.1 through BCJSSE with the pinned certificate ({@link
 * PinnedTrust}), TLS 1.3/1.2 with AES-GCM, a timeout on every request, the session token (or HTTP
 * Basic) on every request but the service root's, and every failure turned into a {@link
 * BmcException} an operator can act on. A GET answered 503 or 429 is retried once after its
 * Retry-After (at most {@link #MAX_RETRY_AFTER}). Used by one thread at a time.
 */
final class RedfishClient {
  static final Duration MAX_RETRY_AFTER = Duration.ofSeconds(10);
  private static final String[] PROTOCOLS = {"TLSv1.3", "TLSv1.2"};
  private static final List<String> SUITES =
      List.of(
          "TLS_AES_256_GCM_SHA384",
          "TLS_AES_128_GCM_SHA256",
          "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384",
          "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256",
          "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384",
          "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256");

  /** An answer: status, ETag (or ""), Location (or ""), X-Auth-Token (or ""), and the JSON body. */
  record Answer(int status, String etag, String location, String token, JsonObject body) {}

  private final BmcEndpoint endpoint;
  private final URI base;
  private final HttpClient http;
  private final PinnedTrust trust;
  private final Duration timeout;
  private String token = "";
  private String basic = "";

  RedfishClient(BmcEndpoint endpoint, Duration connectTimeout, Duration timeout)
      throws BmcException {
    this.endpoint = endpoint;
    this.timeout = timeout;
    String host =
        endpoint.address().contains(":") ? "[" + endpoint.address() + "]" : endpoint.address();
    this.base = URI.create("https://" + host + ":" + endpoint.port());
    this.trust = new PinnedTrust("the BMC at " + endpoint.address(), endpoint.pinnedSha256());
    try {
      var ctx = trust.context();
      SSLParameters p = ctx.getDefaultSSLParameters();
      p.setProtocols(PROTOCOLS);
      List<String> supported = List.of(ctx.getSupportedSSLParameters().getCipherSuites());
      List<String> offered = new ArrayList<>();
      SUITES.stream().filter(supported::contains).forEach(offered::add);
      p.setCipherSuites(offered.toArray(String[]::new));
      this.http =
          HttpClient.newBuilder()
              .version(HttpClient.Version.HTTP_1_1)
              .connectTimeout(connectTimeout)
              .followRedirects(HttpClient.Redirect.NEVER)
              .sslContext(ctx)
              .sslParameters(p)
              .build();
    } catch (GeneralSecurityException e) {
      throw new BmcException(
          Kind.PROTOCOL,
          "Cannot set up TLS to the BMC at "
              + endpoint
              + " through the FIPS provider: "
              + e.getMessage(),
          e);
    }
  }

  BmcEndpoint endpoint() {
    return endpoint;
  }

  /** Returns the fingerprint of the certificate the BMC presented last, or "". */
  String presentedFingerprint() {
    return trust.presented();
  }

  void useToken(String sessionToken) {
    token = sessionToken;
    basic = "";
  }

  void useBasic(String username, char[] password) {
    token = "";
    String pair = username + ":" + new String(password);
    basic = "Basic " + Base64.getEncoder().encodeToString(pair.getBytes(StandardCharsets.UTF_8));
  }

  Answer get(String path) throws BmcException {
    Answer a = send("GET", path, null, null, true);
    if (a.status() == 503 || a.status() == 429) {
      a = send("GET", path, null, null, true);
    }
    return check("GET", path, a);
  }

  Answer patch(String path, JsonObject body, String ifMatch) throws BmcException {
    return check("PATCH", path, send("PATCH", path, body, ifMatch, false));
  }

  Answer post(String path, JsonObject body) throws BmcException {
    return check("POST", path, send("POST", path, body, null, false));
  }

  /** Sends without turning a 4xx/5xx into an exception (logins, logouts). */
  Answer raw(String method, String path, JsonObject body) throws BmcException {
    return send(method, path, body, null, false);
  }

  private Answer send(String method, String path, JsonObject body, String ifMatch, boolean waitBusy)
      throws BmcException {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(base.resolve(path))
            .timeout(timeout)
            .header("Accept", "application/json")
            .header("OData-Version", "4.0")
            .header("User-Agent", "Bulwark");
    if (!token.isEmpty()) {
      b.header("X-Auth-Token", token);
    } else if (!basic.isEmpty()) {
      b.header("Authorization", basic);
    }
    if (ifMatch != null && !ifMatch.isEmpty()) {
      b.header("If-Match", ifMatch);
    }
    if (body != null) {
      b.header("Content-Type", "application/json");
      b.method(method, HttpRequest.BodyPublishers.ofString(body.encode(), StandardCharsets.UTF_8));
    } else {
      b.method(method, HttpRequest.BodyPublishers.noBody());
    }
    HttpResponse<String> r;
    try {
      r = http.send(b.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    } catch (HttpConnectTimeoutException e) {
      throw new BmcException(
          Kind.UNREACHABLE,
          "BMC "
              + endpoint
              + " did not accept a connection in time: check that it is up and reachable from the appliance",
          e);
    } catch (HttpTimeoutException e) {
      throw new BmcException(
          Kind.TIMEOUT,
          "BMC "
              + endpoint
              + " did not answer "
              + method
              + " "
              + path
              + " within "
              + timeout.toSeconds()
              + " s",
          e);
    } catch (ConnectException e) {
      throw new BmcException(
          Kind.UNREACHABLE,
          "BMC "
              + endpoint
              + " refused the connection: check its address and port, and that its Redfish service is on",
          e);
    } catch (SSLException e) {
      throw certificateOrTls(e);
    } catch (IOException e) {
      if (causedBySsl(e)) {
        throw certificateOrTls(e);
      }
      throw new BmcException(
          Kind.UNREACHABLE, "BMC " + endpoint + " could not be reached: " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new BmcException(Kind.TIMEOUT, "interrupted while waiting for BMC " + endpoint, e);
    }
    if (waitBusy && (r.statusCode() == 503 || r.statusCode() == 429)) {
      sleep(retryAfter(r));
    }
    JsonObject json = null;
    String text = r.body();
    if (text != null && !text.isBlank()) {
      try {
        json = new JsonObject(text);
      } catch (DecodeException | ClassCastException e) {
        if (r.statusCode() / 100 == 2) {
          throw new BmcException(
              Kind.PROTOCOL,
              "BMC "
                  + endpoint
                  + " answered "
                  + method
                  + " "
                  + path
                  + " with a body that is not JSON ("
                  + e.getMessage().lines().findFirst().orElse("")
                  + ")",
              e);
        }
      }
    }
    return new Answer(
        r.statusCode(),
        r.headers().firstValue("ETag").orElse(""),
        r.headers().firstValue("Location").orElse(""),
        r.headers().firstValue("X-Auth-Token").orElse(""),
        json == null ? new JsonObject() : json);
  }

  private Answer check(String method, String path, Answer a) throws BmcException {
    int s = a.status();
    if (s / 100 == 2) {
      return a;
    }
    String said = message(a.body()).map(m -> ": " + m).orElse("");
    String what = "BMC " + endpoint + " answered " + method + " " + path + " with " + s + said;
    throw switch (s) {
      case 401, 403 ->
          new BmcException(
              Kind.CREDENTIALS,
              "BMC "
                  + endpoint
                  + " refused the credentials ("
                  + s
                  + said
                  + "): check the user name and password stored for the machine",
              null);
      case 404, 405, 501 -> new BmcException(Kind.UNSUPPORTED, what, null);
      case 412 ->
          new BmcException(
              Kind.BUSY, what + " (the resource changed meanwhile; read it again and retry)", null);
      case 429, 503 -> new BmcException(Kind.BUSY, what + " (busy; retry later)", null);
      case 400 -> new BmcException(Kind.UNSUPPORTED, what, null);
      default -> new BmcException(Kind.PROTOCOL, what, null);
    };
  }

  /** The Redfish error's message (its first extended info, or the error message), if any. */
  static Optional<String> message(JsonObject body) {
    JsonObject error = body.getJsonObject("error");
    if (error == null) {
      return Optional.empty();
    }
    var info = error.getJsonArray("@Message.ExtendedInfo");
    if (info != null && !info.isEmpty() && info.getValue(0) instanceof JsonObject first) {
      String m = first.getString("Message");
      if (m != null && !m.isBlank()) {
        return Optional.of(m);
      }
    }
    return Optional.ofNullable(error.getString("message"));
  }

  private BmcException certificateOrTls(IOException e) {
    String presented = trust.presented();
    if (!presented.isEmpty()) {
      if (trust.unpinned()) {
        return new BmcException(
            Kind.CERTIFICATE,
            "BMC "
                + endpoint
                + " presented a certificate that is not pinned yet (SHA-256 "
                + presented
                + "): an admin compares it with the BMC's and approves it; nothing was sent to the BMC",
            e,
            presented);
      }
      if (!presented.equals(endpoint.pinnedSha256())) {
        return new BmcException(
            Kind.CERTIFICATE,
            "BMC "
                + endpoint
                + " presented another certificate (SHA-256 "
                + presented
                + ") than the one pinned ("
                + endpoint.pinnedSha256()
                + "): the certificate changed since it was pinned; every call to it stops until an"
                + " admin approves the new one",
            e,
            presented);
      }
    }
    return new BmcException(
        Kind.PROTOCOL,
        "TLS with BMC "
            + endpoint
            + " failed: "
            + e.getMessage()
            + " (it may offer only TLS versions or suites the FIPS module refuses)",
        e);
  }

  private static boolean causedBySsl(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof SSLException || t instanceof java.security.cert.CertificateException) {
        return true;
      }
    }
    return false;
  }

  private static Duration retryAfter(HttpResponse<?> r) {
    try {
      long s = Long.parseLong(r.headers().firstValue("Retry-After").orElse("1").strip());
      return Duration.ofSeconds(Math.max(0, Math.min(s, MAX_RETRY_AFTER.toSeconds())));
    } catch (NumberFormatException e) {
      return Duration.ofSeconds(1);
    }
  }

  private static void sleep(Duration d) {
    try {
      Thread.sleep(d.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
