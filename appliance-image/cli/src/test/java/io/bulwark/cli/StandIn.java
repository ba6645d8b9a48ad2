package io.bulwark.cli;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsParameters;
import com.sun.net.httpserver.HttpsServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;

/**
 * A stand-in for the appliance's API in the tests: an HTTPS server on the loopback interface (JDK
 * {@code HttpsServer}, TLS through BCJSSE in FIPS mode like the appliance) with a chosen
 * certificate, that answers each {@code METHOD path} with a canned answer and records every request
 * it gets. Anything not set up answers 404 with a problem, as the appliance does.
 */
final class StandIn implements AutoCloseable {
  private static final char[] KEY_PASSWORD = "stand-in-appliance-key-password".toCharArray();

  /** A request as the server got it. */
  record Request(
      String method, String path, String query, Map<String, List<String>> headers, String body) {
    String header(String name) {
      for (Map.Entry<String, List<String>> h : headers.entrySet()) {
        if (h.getKey().equalsIgnoreCase(name)) {
          return h.getValue().get(0);
        }
      }
      return null;
    }
  }

  /** A canned answer. */
  record Answer(int status, String contentType, String body) {}

  private final HttpsServer server;
  private final ExecutorService threads = Executors.newCachedThreadPool();
  private final Map<String, Answer> answers = new ConcurrentHashMap<>();
  private final List<Request> requests = new CopyOnWriteArrayList<>();

  /** Starts the server on 127.0.0.1 with {@code identity}. */
  StandIn(Certificates.Identity identity) throws Exception {
    FipsProviders.install();
    KeyStore store = KeyStore.getInstance("BCFKS", "BCFIPS");
    store.load(null, null);
    store.setKeyEntry(
        "server", identity.key(), KEY_PASSWORD, identity.chain().toArray(new X509Certificate[0]));
    KeyManagerFactory keys = KeyManagerFactory.getInstance("PKIX", "BCJSSE");
    keys.init(store, KEY_PASSWORD);
    SSLContext tls = SSLContext.getInstance("TLS", "BCJSSE");
    tls.init(keys.getKeyManagers(), null, FipsProviders.install());
    server = HttpsServer.create(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0), 0);
    server.setHttpsConfigurator(
        new HttpsConfigurator(tls) {
          @Override
          public void configure(HttpsParameters params) {
            SSLParameters p = getSSLContext().getDefaultSSLParameters();
            p.setProtocols(new String[] {"TLSv1.3", "TLSv1.2"});
            params.setSSLParameters(p);
          }
        });
    server.setExecutor(threads);
    server.createContext("/", this::handle);
    server.start();
  }

  /** Returns the port the server listens on. */
  int port() {
    return server.getAddress().getPort();
  }

  /** Returns https://127.0.0.1:PORT. */
  String url() {
    return "https://127.0.0.1:" + port();
  }

  /** Answers {@code method path} with {@code status} and the JSON {@code body}. */
  StandIn answer(String method, String path, int status, String body) {
    return answer(method, path, status, "application/json", body);
  }

  /** Answers {@code method path} with {@code status}, the media type and the body. */
  StandIn answer(String method, String path, int status, String contentType, String body) {
    answers.put(method + " " + path, new Answer(status, contentType, body));
    return this;
  }

  /** Answers {@code method path} with a problem (application/problem+json). */
  StandIn problem(String method, String path, int status, String title, String detail) {
    return answer(
        method,
        path,
        status,
        "application/problem+json",
        "{\"type\":\"urn:bulwark:problem:x\",\"title\":\""
            + title
            + "\",\"status\":"
            + status
            + ",\"detail\":\""
            + detail
            + "\",\"instance\":\""
            + path
            + "\"}");
  }

  /** Returns the requests received, oldest first. */
  List<Request> requests() {
    return List.copyOf(requests);
  }

  /** Returns the last request received. */
  Request last() {
    return requests.get(requests.size() - 1);
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
      String method = exchange.getRequestMethod();
      String path = exchange.getRequestURI().getRawPath();
      requests.add(
          new Request(
              method,
              path,
              exchange.getRequestURI().getRawQuery(),
              Map.copyOf(exchange.getRequestHeaders()),
              body));
      Answer answer = answers.get(method + " " + path);
      if (answer == null) {
        answer =
            new Answer(
                404,
                "application/problem+json",
                "{\"type\":\"urn:bulwark:problem:not-found\",\"title\":\"Not found\",\"status\":404,"
                    + "\"detail\":\"Nothing is served at "
                    + path
                    + ".\"}");
      }
      byte[] bytes = answer.body().getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().set("Content-Type", answer.contentType());
      exchange.sendResponseHeaders(answer.status(), bytes.length == 0 ? -1 : bytes.length);
      if (bytes.length > 0) {
        exchange.getResponseBody().write(bytes);
      }
    }
  }

  @Override
  public void close() {
    server.stop(0);
    threads.shutdownNow();
  }
}
