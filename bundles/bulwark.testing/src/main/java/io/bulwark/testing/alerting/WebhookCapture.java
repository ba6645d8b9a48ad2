package io.bulwark.testing.alerting;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An HTTP server on 127.0.0.1 that records every request it gets, for tests of code that calls a
 * webhook (Alertmanager's, or Bulwark's own notifiers). It listens on a free port from {@link
 * #start()} until {@link #close()}, accepts any method on any path, and answers 200 with an empty
 * body unless told otherwise: {@link #respondWith(int)} makes it answer another status (500 to test
 * retries), {@link #hang()} holds requests open without answering (to test client timeouts) and
 * {@link #dropConnections()} closes each connection without an answer (to test a receiver that goes
 * away). Requests are recorded before the answer is chosen, so a hung or dropped request is still
 * in {@link #requests()}.
 *
 * <p>Safe to use from several threads; each request is handled on its own daemon thread, so a hung
 * request does not hold up the next.
 */
public final class WebhookCapture implements AutoCloseable {
  /** One request as the capture received it. */
  public record Captured(
      String method,
      String path,
      String query,
      Map<String, List<String>> headers,
      String body,
      Instant receivedAt) {
    /**
     * The first value of the request header {@code name}, matched without regard to case, or empty
     * when the request had no such header.
     */
    public Optional<String> header(String name) {
      return headers.entrySet().stream()
          .filter(e -> e.getKey().equalsIgnoreCase(name) && !e.getValue().isEmpty())
          .map(e -> e.getValue().get(0))
          .findFirst();
    }
  }

  private enum Kind {
    ANSWER,
    HANG,
    DROP
  }

  private record Reply(Kind kind, int status, String body) {}

  private static final AtomicInteger SERVERS = new AtomicInteger();

  private final HttpServer server;
  private final ExecutorService handlers;
  private final Object lock = new Object();
  private final List<Captured> requests = new ArrayList<>(); // guarded by lock
  private Reply reply = new Reply(Kind.ANSWER, 200, ""); // guarded by lock
  private boolean closed; // guarded by lock

  private WebhookCapture(HttpServer server, ExecutorService handlers) {
    this.server = server;
    this.handlers = handlers;
  }

  /**
   * Starts a capture on 127.0.0.1 at a port the system picks; close it when the test is done.
   *
   * @throws UncheckedIOException if no loopback port can be bound
   */
  public static WebhookCapture start() {
    HttpServer server;
    try {
      server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 50);
    } catch (IOException e) {
      throw new UncheckedIOException(
          "could not bind a webhook capture server to a free port on 127.0.0.1: " + e, e);
    }
    int id = SERVERS.incrementAndGet();
    AtomicInteger threads = new AtomicInteger();
    ExecutorService handlers =
        Executors.newCachedThreadPool(
            r -> {
              Thread t = new Thread(r, "webhook-capture-" + id + "-" + threads.incrementAndGet());
              t.setDaemon(true);
              return t;
            });
    WebhookCapture capture = new WebhookCapture(server, handlers);
    server.createContext("/", capture::handle);
    server.setExecutor(handlers);
    server.start();
    return capture;
  }

  /** The port the capture listens on, on 127.0.0.1. */
  public int port() {
    return server.getAddress().getPort();
  }

  /**
   * The URL of {@code path} on this capture, e.g. {@code url("/alertmanager")} gives {@code
   * http://127.0.0.1:41234/alertmanager}.
   *
   * @throws IllegalArgumentException if {@code path} does not start with "/"
   */
  public URI url(String path) {
    if (!path.startsWith("/")) {
      throw new IllegalArgumentException(
          "the webhook path must start with \"/\" (got \"" + path + "\"); write \"/" + path + "\"");
    }
    return URI.create("http://127.0.0.1:" + port() + path);
  }

  /** From now on, answers every request with {@code status} and an empty body. */
  public void respondWith(int status) {
    respondWith(status, "");
  }

  /**
   * From now on, answers every request with {@code status} and {@code body} (UTF-8, no content
   * type). Releases requests held by {@link #hang()}, which then get this answer.
   *
   * @throws IllegalArgumentException if {@code status} is not between 100 and 599
   */
  public void respondWith(int status, String body) {
    if (status < 100 || status > 599) {
      throw new IllegalArgumentException(
          "an HTTP status is between 100 and 599, got " + status + "; pass e.g. 200 or 500");
    }
    setReply(new Reply(Kind.ANSWER, status, body));
  }

  /**
   * From now on, records each request and then holds it open without answering, until {@link
   * #respondWith} changes the answer or the capture closes (which drops the held connections). The
   * caller sees its own read timeout.
   */
  public void hang() {
    setReply(new Reply(Kind.HANG, 0, ""));
  }

  /**
   * From now on, records each request and then closes its connection without sending a status line,
   * so the caller sees the connection reset or end of stream.
   */
  public void dropConnections() {
    setReply(new Reply(Kind.DROP, 0, ""));
  }

  /** The requests received so far, oldest first; a copy that later requests do not change. */
  public List<Captured> requests() {
    synchronized (lock) {
      return List.copyOf(requests);
    }
  }

  /** Forgets the requests received so far; the answer set by {@link #respondWith} stays. */
  public void clear() {
    synchronized (lock) {
      requests.clear();
    }
  }

  /**
   * Waits until at least {@code n} requests have arrived (counting those before the call, since the
   * start or the last {@link #clear()}) and returns them all, oldest first.
   *
   * @throws AssertionError if fewer than {@code n} arrived within {@code timeout}; the message
   *     lists the ones that did
   */
  public List<Captured> awaitRequests(int n, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    synchronized (lock) {
      while (requests.size() < n) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          StringBuilder got = new StringBuilder();
          for (Captured c : requests) {
            got.append("\n  ").append(c.method()).append(' ').append(c.path()).append(' ');
            got.append(c.body());
          }
          throw new AssertionError(
              "expected "
                  + n
                  + " request(s) at "
                  + url("/")
                  + " within "
                  + timeout
                  + " but got "
                  + requests.size()
                  + (requests.isEmpty() ? "" : ":" + got)
                  + "; check that the sender was given this capture's URL and that it sent");
        }
        try {
          lock.wait(Math.max(1, left / 1_000_000));
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new AssertionError("interrupted while waiting for " + n + " request(s)", e);
        }
      }
      return List.copyOf(requests);
    }
  }

  /** Stops the server, drops held and open connections and frees the port; safe to call twice. */
  @Override
  public void close() {
    synchronized (lock) {
      if (closed) {
        return;
      }
      closed = true;
      lock.notifyAll();
    }
    server.stop(0);
    handlers.shutdownNow();
  }

  private void setReply(Reply next) {
    synchronized (lock) {
      reply = next;
      lock.notifyAll();
    }
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      String body;
      try (InputStream in = exchange.getRequestBody()) {
        body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      }
      Map<String, List<String>> headers = new LinkedHashMap<>();
      exchange.getRequestHeaders().forEach((k, v) -> headers.put(k, List.copyOf(v)));
      String query = exchange.getRequestURI().getRawQuery();
      Captured captured =
          new Captured(
              exchange.getRequestMethod(),
              exchange.getRequestURI().getRawPath(),
              query == null ? "" : query,
              Collections.unmodifiableMap(headers),
              body,
              Instant.now());
      Reply answer;
      synchronized (lock) {
        requests.add(captured);
        lock.notifyAll();
        while (reply.kind() == Kind.HANG && !closed) {
          try {
            lock.wait();
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return; // closing: the connection is dropped
          }
        }
        answer = closed ? new Reply(Kind.DROP, 0, "") : reply;
      }
      if (answer.kind() == Kind.DROP) {
        return; // closing the exchange before sending headers closes the connection
      }
      byte[] bytes = answer.body().getBytes(StandardCharsets.UTF_8);
      exchange.sendResponseHeaders(answer.status(), bytes.length == 0 ? -1 : bytes.length);
      if (bytes.length > 0) {
        try (OutputStream out = exchange.getResponseBody()) {
          out.write(bytes);
        }
      }
    }
  }
}
