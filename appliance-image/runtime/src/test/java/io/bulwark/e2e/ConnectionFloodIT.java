package io.bulwark.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.Test;

/**
 * A flood of connections that never start TLS, from many addresses, cannot keep the administrators
 * out of the admin plane. Twenty addresses (127.0.0.2 to 127.0.0.21) each hold 64 plain TCP
 * connections, under the per-address cap but 1,280 together, more than the listener's 1,024, and
 * reopen the ones the appliance closes (up to four per address every 50 ms), for 12 s. Meanwhile
 * two administrators send a request with their API token on a new connection every 100 ms, one at
 * the console (127.0.0.1) and one at an address that authenticated before the flood (127.0.0.30),
 * and people at addresses never seen before log in every two seconds. At least 99% of the
 * administrators' requests are answered within 2 s and every login succeeds. Each request pays a
 * TLS handshake while the flood shares the two cores, so the figures printed include two seconds of
 * the console's requests before the flood, for comparison.
 */
class ConnectionFloodIT {
  private static final int FLOODERS = 20;
  private static final int PER_FLOODER = 64;
  private static final int REOPEN_PER_ROUND = 4;
  private static final long ROUND_MILLIS = 50;
  private static final long FLOOD_SECONDS = 12;
  private static final long CALM_SECONDS = 2;
  private static final long PROBE_PAUSE_MILLIS = 100;
  private static final long LOGIN_PAUSE_MILLIS = 2000;
  private static final double ANSWERED_WITHIN_SECONDS = 2.0;
  private static final String CONSOLE = "127.0.0.1";
  private static final String REMOTE_ADMIN = "127.0.0.30";
  private static final Pattern FLOODER_ADDRESS = Pattern.compile("127\\.0\\.0\\.(\\d+)");

  @Test
  void administratorsAreAnsweredAndNewcomersLogInThroughAFloodOfHandshakeLessConnections()
      throws Exception {
    Path work = RunningAppliance.workDir("connection-flood");
    try (RunningAppliance bulwark = RunningAppliance.demo(work, Map.of("BULWARK_SIM_BMCS", "0"))) {
      bulwark.awaitUp(Duration.ofSeconds(60));
      SSLContext tls = PinnedCertificate.context(bulwark.log);
      String bearer =
          "Bearer "
              + Runs.issueToken(bulwark, "flood-" + Long.toString(System.nanoTime(), 36), "admin")
                  .getString("token");
      Client console = new Client(tls, CONSOLE, bulwark.httpsPort, bearer);
      Client remote = new Client(tls, REMOTE_ADMIN, bulwark.httpsPort, bearer);

      // given an administrator at another address who authenticated before the flood
      assertThat(remote.send("GET", "/api/v1/health", null).status()).isEqualTo(200);
      Probes calm = probe(console, System.nanoTime() + TimeUnit.SECONDS.toNanos(CALM_SECONDS));

      // when twenty addresses fill the listener with connections that never start TLS
      AtomicBoolean flooding = new AtomicBoolean(true);
      Flood flood = new Flood();
      ExecutorService threads = Executors.newFixedThreadPool(FLOODERS + 2);
      for (int i = 0; i < FLOODERS; i++) {
        String from = "127.0.0." + (2 + i);
        threads.submit(() -> flood.keepOpen(from, bulwark.httpsPort, flooding));
      }
      long rampDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (flood.opened.sum() < (long) FLOODERS * PER_FLOODER) {
        assertThat(System.nanoTime())
            .as("the flood opened its connections")
            .isLessThan(rampDeadline);
        Thread.sleep(50);
      }

      // then the administrators are answered and newcomers log in throughout
      long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(FLOOD_SECONDS);
      Future<Probes> atConsole = threads.submit(() -> probe(console, end));
      Future<Probes> atRemote = threads.submit(() -> probe(remote, end));
      Probes logins = new Probes("newcomers' logins");
      int newcomer = 0;
      String metricsUnderFlood = "";
      while (System.nanoTime() < end) {
        Client fresh = new Client(tls, "127.0.0." + (40 + newcomer++), bulwark.httpsPort, null);
        Answer login =
            fresh.send(
                "POST",
                "/api/v1/session",
                new JsonObject()
                    .put("user", "admin")
                    .put("password", RunningAppliance.ADMIN_PASSWORD)
                    .encode());
        logins.add(login, 201);
        if (newcomer == 3) {
          Answer metrics = console.send("GET", "/metrics", null);
          metricsUnderFlood = metrics.status() == 200 ? metrics.body() : "";
        }
        Thread.sleep(
            Math.max(
                0,
                Math.min(
                    LOGIN_PAUSE_MILLIS, TimeUnit.NANOSECONDS.toMillis(end - System.nanoTime()))));
      }
      Probes consoleProbes = atConsole.get(30, TimeUnit.SECONDS);
      Probes remoteProbes = atRemote.get(30, TimeUnit.SECONDS);
      flooding.set(false);
      threads.shutdown();
      assertThat(threads.awaitTermination(30, TimeUnit.SECONDS)).isTrue();

      System.out.printf(
          "connection flood from %d addresses for %d s: %d connections opened, %d closed by the"
              + " appliance, at most %d held at once; appliance under the flood: %s open, %s"
              + " without a handshake, %s evicted, %s refused%nbefore the flood, %s%n%s%n%s%n%s%n",
          FLOODERS,
          FLOOD_SECONDS,
          flood.opened.sum(),
          flood.closedByServer.sum(),
          flood.heldMost.get(),
          metric(metricsUnderFlood, "bulwark_connections_open"),
          metric(metricsUnderFlood, "bulwark_connections_open_without_handshake"),
          metric(metricsUnderFlood, "bulwark_connections_evicted_total"),
          metric(metricsUnderFlood, "bulwark_connections_refused_total"),
          calm.summary(),
          consoleProbes.summary(),
          remoteProbes.summary(),
          logins.summary());
      assertThat(flood.heldMost.get())
          .as("connections the flood held at once (the listener's handshake-less share or more)")
          .isGreaterThanOrEqualTo(700);
      for (Probes admin : List.of(consoleProbes, remoteProbes)) {
        assertThat(admin.attempts()).as("requests from %s", admin.from).isGreaterThan(30);
        assertThat(admin.answeredWithin(ANSWERED_WITHIN_SECONDS))
            .as(
                "share of the requests from %s answered within 2 s: %s",
                admin.from, admin.summary())
            .isGreaterThanOrEqualTo(0.99);
      }
      assertThat(logins.failures).as("logins from addresses never seen before").isEmpty();

      JsonObject health = new JsonObject(bulwark.get("/api/v1/health").body());
      JsonObject connections = subsystem(health.getJsonArray("subsystems"), "connections");
      assertThat(connections.getString("state")).isEqualTo("DEGRADED");
      Matcher named = FLOODER_ADDRESS.matcher(connections.getString("summary"));
      assertThat(named.find() && Integer.parseInt(named.group(1)) <= 1 + FLOODERS)
          .as("the summary names a flooding address: %s", connections.getString("summary"))
          .isTrue();
    }
  }

  /** Sends a request from {@code client} every 100 ms until {@code end} (System.nanoTime). */
  private static Probes probe(Client client, long end) throws InterruptedException {
    Probes probes = new Probes(client.from);
    while (System.nanoTime() < end) {
      probes.add(client.send("GET", "/api/v1/health", null), 200);
      Thread.sleep(PROBE_PAUSE_MILLIS);
    }
    return probes;
  }

  /** The connections of the flood, from all its addresses. */
  private static final class Flood {
    final LongAdder opened = new LongAdder();
    final LongAdder closedByServer = new LongAdder();
    final AtomicInteger heldNow = new AtomicInteger();
    final AtomicInteger heldMost = new AtomicInteger();

    /**
     * Keeps {@link #PER_FLOODER} connections from {@code from} open, never sending a byte, and
     * reopens up to {@link #REOPEN_PER_ROUND} of those the appliance closed every {@link
     * #ROUND_MILLIS}, until {@code flooding} is false.
     */
    Void keepOpen(String from, int port, AtomicBoolean flooding) throws Exception {
      SocketChannel[] slots = new SocketChannel[PER_FLOODER];
      ByteBuffer scratch = ByteBuffer.allocate(64);
      InetSocketAddress local = new InetSocketAddress(InetAddress.getByName(from), 0);
      InetSocketAddress server = new InetSocketAddress("127.0.0.1", port);
      try {
        while (flooding.get()) {
          int reopened = 0;
          for (int i = 0; i < slots.length; i++) {
            if (slots[i] != null && stillOpen(slots[i], scratch)) {
              continue;
            }
            if (slots[i] != null) {
              closedByServer.increment();
              heldNow.decrementAndGet();
              close(slots[i]);
              slots[i] = null;
            }
            if (reopened < REOPEN_PER_ROUND) {
              reopened++;
              slots[i] = connect(local, server);
              if (slots[i] != null) {
                opened.increment();
                heldMost.accumulateAndGet(heldNow.incrementAndGet(), Math::max);
              }
            }
          }
          Thread.sleep(ROUND_MILLIS);
        }
      } finally {
        for (SocketChannel s : slots) {
          if (s != null) {
            close(s);
          }
        }
      }
      return null;
    }

    private static SocketChannel connect(InetSocketAddress local, InetSocketAddress server) {
      SocketChannel s = null;
      try {
        s = SocketChannel.open();
        s.bind(local);
        s.connect(server);
        s.configureBlocking(false);
        return s;
      } catch (IOException e) {
        if (s != null) {
          close(s);
        }
        return null;
      }
    }

    private static boolean stillOpen(SocketChannel s, ByteBuffer scratch) {
      try {
        scratch.clear();
        return s.read(scratch) >= 0;
      } catch (IOException reset) {
        return false;
      }
    }

    private static void close(SocketChannel s) {
      try {
        s.close();
      } catch (IOException ignored) {
        // gone already
      }
    }
  }

  /** One answer: its status (-1 if none came), body and the seconds it took. */
  private record Answer(int status, String body, double seconds) {}

  /** The answers one client had, and how many were what it expected. */
  private static final class Probes {
    final String from;
    final List<Double> answered = new ArrayList<>();
    final List<String> failures = new ArrayList<>();
    int attempts;

    Probes(String from) {
      this.from = from;
    }

    synchronized void add(Answer a, int expected) {
      attempts++;
      if (a.status() == expected) {
        answered.add(a.seconds());
      } else {
        failures.add(a.status() + " " + a.body().lines().findFirst().orElse(""));
      }
    }

    synchronized int attempts() {
      return attempts;
    }

    /** Returns the share of the attempts answered as expected within {@code seconds}. */
    synchronized double answeredWithin(double seconds) {
      return attempts == 0
          ? 0
          : answered.stream().filter(s -> s <= seconds).count() / (double) attempts;
    }

    synchronized String summary() {
      List<Double> sorted = answered.stream().sorted().toList();
      return String.format(
          Locale.ROOT,
          "%s: %d of %d answered (%.1f%% within 2 s), p50 %s s, p99 %s s, slowest %s s%s",
          from,
          answered.size(),
          attempts,
          100 * answeredWithin(ANSWERED_WITHIN_SECONDS),
          percentile(sorted, 0.50),
          percentile(sorted, 0.99),
          sorted.isEmpty()
              ? "-"
              : String.format(Locale.ROOT, "%.3f", sorted.get(sorted.size() - 1)),
          failures.isEmpty()
              ? ""
              : "; first failures " + failures.subList(0, Math.min(3, failures.size())));
    }

    private static String percentile(List<Double> sorted, double p) {
      if (sorted.isEmpty()) {
        return "-";
      }
      int at = (int) Math.ceil(p * sorted.size()) - 1;
      return String.format(Locale.ROOT, "%.3f", sorted.get(Math.max(0, at)));
    }
  }

  /**
   * A client at the local address {@code from} (java.net.http cannot choose it on Java 17) that
   * sends each request on a new TLS connection, as a browser does after its connections were closed
   * or a monitoring probe does every time.
   */
  private static final class Client {
    private final SSLContext tls;
    private final String from;
    private final int port;
    private final String authorization;

    Client(SSLContext tls, String from, int port, String authorization) {
      this.tls = tls;
      this.from = from;
      this.port = port;
      this.authorization = authorization;
    }

    /** Sends a request; returns the answer, or status -1 with the error if none came. */
    Answer send(String method, String path, String json) {
      long start = System.nanoTime();
      try (Socket plain = new Socket()) {
        plain.bind(new InetSocketAddress(InetAddress.getByName(from), 0));
        plain.connect(new InetSocketAddress("127.0.0.1", port), 5000);
        plain.setSoTimeout(5000);
        try (SSLSocket ssl =
            (SSLSocket) tls.getSocketFactory().createSocket(plain, "127.0.0.1", port, true)) {
          byte[] body = json == null ? new byte[0] : json.getBytes(StandardCharsets.UTF_8);
          StringBuilder head =
              new StringBuilder(method)
                  .append(' ')
                  .append(path)
                  .append(" HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n");
          if (authorization != null) {
            head.append("Authorization: ").append(authorization).append("\r\n");
          }
          if (json != null) {
            head.append("Content-Type: application/json\r\nContent-Length: ")
                .append(body.length)
                .append("\r\n");
          }
          head.append("\r\n");
          OutputStream out = ssl.getOutputStream();
          out.write(head.toString().getBytes(StandardCharsets.US_ASCII));
          out.write(body);
          out.flush();
          return read(ssl.getInputStream(), start);
        }
      } catch (IOException | RuntimeException e) {
        return new Answer(-1, e.toString(), (System.nanoTime() - start) / 1e9);
      }
    }

    private static Answer read(InputStream in, long start) throws IOException {
      StringBuilder head = new StringBuilder();
      while (head.indexOf("\r\n\r\n") < 0) {
        int b = in.read();
        if (b < 0) {
          throw new IOException("closed before the answer's headers");
        }
        head.append((char) b);
      }
      String lower = head.toString().toLowerCase(Locale.ROOT);
      ByteArrayOutputStream body = new ByteArrayOutputStream();
      int length = lower.indexOf("content-length:");
      if (length >= 0) {
        body.write(in.readNBytes(Integer.parseInt(header(lower, length + 15))));
      } else if (lower.contains("transfer-encoding: chunked")) {
        for (int size = chunkSize(in); size > 0; size = chunkSize(in)) {
          body.write(in.readNBytes(size));
          in.readNBytes(2);
        }
      }
      return new Answer(
          Integer.parseInt(head.substring(9, 12)),
          body.toString(StandardCharsets.UTF_8),
          (System.nanoTime() - start) / 1e9);
    }

    private static String header(String head, int valueAt) {
      return head.substring(valueAt, head.indexOf('\r', valueAt)).trim();
    }

    private static int chunkSize(InputStream in) throws IOException {
      StringBuilder line = new StringBuilder();
      for (int b = in.read(); b != '\n'; b = in.read()) {
        if (b < 0) {
          throw new IOException("closed within a chunked answer");
        }
        line.append((char) b);
      }
      return Integer.parseInt(line.toString().trim(), 16);
    }
  }

  private static JsonObject subsystem(JsonArray subsystems, String name) {
    for (int i = 0; i < subsystems.size(); i++) {
      if (name.equals(subsystems.getJsonObject(i).getString("subsystem"))) {
        return subsystems.getJsonObject(i);
      }
    }
    throw new AssertionError("no subsystem " + name + " in " + subsystems.encodePrettily());
  }

  /** Returns a metric's value on a {@code /metrics} page, or "-" if the page does not have it. */
  private static String metric(String page, String name) {
    for (String line : page.split("\n")) {
      if (line.startsWith(name + " ")) {
        return line.substring(name.length() + 1).trim();
      }
    }
    return "-";
  }
}
