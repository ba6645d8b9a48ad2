package io.bulwark.web.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vertx.core.Vertx;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * A client cannot hold a connection to the admin plane by sending its request slowly or not at all:
 * headers, body and the wait between requests each have a deadline, after which the server closes
 * the connection. Over loopback against the real router, with one-second deadlines.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RequestDeadlinesTest {
  private static final ConnectionOptions ONE_SECOND = new ConnectionOptions(64, 8, 1, 1, 1, 1, 30);

  private final FleetFixture fixture = new FleetFixture();
  private Vertx vertx;
  private WebServer server;

  @BeforeAll
  void start() {
    vertx = Vertx.vertx();
    server = fixture.start(vertx, Listener.plainHttp(new WebOptions("127.0.0.1", 0), ONE_SECOND));
  }

  @AfterAll
  void stop() throws Exception {
    server.stop();
    vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  @Test
  void aConnectionThatNeverFinishesItsHeadersIsClosed() throws Exception {
    long before = server.deadlines().closedWaitingForHeaders();
    try (Socket s = connect()) {
      send(s, "GET /api/v1/banner HTTP/1.1\r\nHost: bulwark\r\nX-Slow: ");
      assertThat(secondsUntilClosed(s)).isBetween(0.5, 4.0);
    }
    assertThat(server.deadlines().closedWaitingForHeaders()).isEqualTo(before + 1);
  }

  @Test
  void aConnectionThatSendsNothingIsClosed() throws Exception {
    try (Socket s = connect()) {
      assertThat(secondsUntilClosed(s)).isBetween(0.5, 4.0);
    }
  }

  @Test
  void aRequestWhoseBodyNeverArrivesIsClosed() throws Exception {
    long before = server.deadlines().closedWaitingForBody();
    try (Socket s = connect()) {
      send(
          s,
          "POST /api/v1/session HTTP/1.1\r\nHost: bulwark\r\nContent-Type: application/json\r\n"
              + "Content-Length: 200\r\n\r\n{\"user\":");
      assertThat(secondsUntilClosed(s)).isBetween(0.5, 4.0);
    }
    assertThat(server.deadlines().closedWaitingForBody()).isEqualTo(before + 1);
  }

  @Test
  void aPromptClientIsAnsweredAndItsIdleConnectionClosedAfterTheKeepAlive() throws Exception {
    try (Socket s = connect()) {
      send(s, "GET /api/v1/banner HTTP/1.1\r\nHost: bulwark\r\n\r\n");
      String head = readHead(s);
      assertThat(head).startsWith("HTTP/1.1 200");
      // the same connection serves a second request at once
      send(s, "GET /api/v1/banner HTTP/1.1\r\nHost: bulwark\r\n\r\n");
      assertThat(readHead(s)).startsWith("HTTP/1.1 200");
      long before = server.deadlines().closedKeptAlive();
      double seconds = secondsUntilClosed(s);
      assertThat(seconds).isBetween(0.5, 4.0);
      assertThat(server.deadlines().closedKeptAlive()).isEqualTo(before + 1);
    }
  }

  @Test
  void theLimitsAreValidatedWithTheNameOfTheProperty() {
    assertThatThrownBy(() -> new ConnectionOptions(10, 20, 1, 1, 1, 1, 1))
        .hasMessageContaining("maxConnectionsPerAddress (20) must not exceed maxConnections (10)");
    assertThatThrownBy(() -> new ConnectionOptions(10, 5, 1, 0, 1, 1, 1))
        .hasMessageContaining("requestHeaderTimeoutSeconds must be at least 1");
  }

  private Socket connect() throws IOException {
    Socket s = new Socket();
    s.connect(new InetSocketAddress("127.0.0.1", server.port()), 5000);
    return s;
  }

  private static void send(Socket s, String text) throws IOException {
    OutputStream out = s.getOutputStream();
    out.write(text.getBytes(StandardCharsets.US_ASCII));
    out.flush();
  }

  /** Reads a response's head and its body (by Content-Length). */
  private static String readHead(Socket s) throws IOException {
    s.setSoTimeout(5000);
    InputStream in = s.getInputStream();
    StringBuilder head = new StringBuilder();
    while (!head.toString().endsWith("\r\n\r\n")) {
      int b = in.read();
      if (b < 0) {
        throw new IOException("closed after " + head);
      }
      head.append((char) b);
    }
    String text = head.toString();
    int at = text.toLowerCase(java.util.Locale.ROOT).indexOf("content-length:");
    int length = Integer.parseInt(text.substring(at + 15, text.indexOf('\r', at)).trim());
    in.readNBytes(length);
    return text;
  }

  /** Returns the seconds until the server closes the connection (fails after 10 s). */
  private static double secondsUntilClosed(Socket s) throws IOException {
    long start = System.nanoTime();
    s.setSoTimeout(10_000);
    InputStream in = s.getInputStream();
    try {
      while (in.read() >= 0) {
        // a response to what was sent, if any, then the close
      }
    } catch (SocketTimeoutException e) {
      throw new AssertionError("the connection is still open after 10 s", e);
    } catch (IOException reset) {
      // closed
    }
    return (System.nanoTime() - start) / 1e9;
  }
}
