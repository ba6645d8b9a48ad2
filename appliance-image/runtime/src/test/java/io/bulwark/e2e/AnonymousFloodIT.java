package io.bulwark.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.RandomAccessFile;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * What the anonymous can make the audit log write. Given the shared appliance, when four clients at
 * addresses of their own send every request anyone may send without credentials, paced at 20 a
 * second each for 8 s: agent enrolments with guessed tokens and 15.5 KB endpoints, logins with
 * wrong passwords and malformed or oversized bodies, state changes on 2,000-character paths, the
 * banner, {@code /healthz} and {@code /metrics}; then the audit log holds, per client, one record
 * of a refused request (the rest are counted into one record when the minute ends) and one record
 * per login attempt its login budget let through, none of them longer than a few hundred bytes.
 * Loopback only; about 12 s.
 */
@ExtendWith(SharedAppliance.class)
class AnonymousFloodIT {
  private static final int CLIENTS = 4;
  private static final long FLOOD_MILLIS = 8_000;
  private static final long PACE_MILLIS = 50;

  /** The login budget of one address (docs/security.md): a burst of 10, then one every 3 s. */
  private static final int LOGINS_LET_THROUGH = 10 + (int) (FLOOD_MILLIS / 3000) + 1;

  private static final int MAX_RECORD_BYTES = 1024;

  @Test
  void aFloodOfAnonymousRequestsCostsTheAuditLogAFewKilobytesPerClient(RunningAppliance bulwark)
      throws Exception {
    Path log = bulwark.dataDir.resolve("audit").resolve("audit.jsonl");
    long before = Files.size(log);
    SSLContext tls = PinnedCertificate.context(bulwark.log);
    String run = Long.toString(System.nanoTime(), 36);
    List<String> addresses = new ArrayList<>();
    Map<Integer, LongAdder> statuses = new ConcurrentHashMap<>();
    ExecutorService pool = Executors.newFixedThreadPool(CLIENTS);
    List<Future<?>> clients = new ArrayList<>();
    for (int c = 0; c < CLIENTS; c++) {
      String from = "127.0.5." + (10 + c);
      addresses.add(from);
      clients.add(
          pool.submit(
              () -> {
                Client client = new Client(tls, from, bulwark.httpsPort);
                long end = System.currentTimeMillis() + FLOOD_MILLIS;
                for (int n = 0; System.currentTimeMillis() < end; n++) {
                  int status = client.send(request(n, run));
                  statuses.computeIfAbsent(status, s -> new LongAdder()).increment();
                  Thread.sleep(PACE_MILLIS);
                }
                client.close();
                return null;
              }));
    }
    for (Future<?> f : clients) {
      f.get(60, TimeUnit.SECONDS);
    }
    pool.shutdown();
    long flooded = Files.size(log) - before;
    Map<String, List<JsonObject>> records = awaitRefusalRecords(log, before, addresses);

    long bytes = 0;
    int longest = 0;
    for (List<JsonObject> list : records.values()) {
      for (JsonObject r : list) {
        int length = r.encode().length() + 1;
        bytes += length;
        longest = Math.max(longest, length);
      }
    }
    System.out.printf(
        "anonymous flood from %d clients for %d s: answers %s; the audit log grew %d bytes during"
            + " the flood, %d bytes of records from the flooding addresses (the longest %d): %s%n",
        CLIENTS,
        FLOOD_MILLIS / 1000,
        new TreeMap<>(statuses),
        flooded,
        bytes,
        longest,
        counts(records));
    assertThat(longest).as("the longest record (bytes)").isLessThan(MAX_RECORD_BYTES);
    // 503: the login lane of new addresses is full, as it is meant to be under a flood
    assertThat(statuses.keySet()).as("answers (-1: closed)").allMatch(s -> s < 500 || s == 503);
    assertThat(statuses).as("answers").containsKeys(401, 403, 429);
    for (String from : addresses) {
      List<JsonObject> mine = records.getOrDefault(from, List.of());
      long refused = mine.stream().filter(r -> r.getString("action").equals("api.refused")).count();
      long logins =
          mine.stream().filter(r -> r.getString("action").equals("session.login")).count();
      assertThat(refused).as("refusal records of %s", from).isEqualTo(1);
      assertThat(logins).as("login records of %s", from).isLessThanOrEqualTo(LOGINS_LET_THROUGH);
      assertThat(mine).as("records of %s", from).hasSize((int) (refused + logins));
    }
    assertThat(bytes)
        .as("audit bytes of the flood")
        .isLessThan(CLIENTS * (MAX_RECORD_BYTES + LOGINS_LET_THROUGH * 600L));
  }

  /** The {@code n}th request of a client: each anonymous request in turn. */
  private static String request(int n, String run) {
    String big = "x".repeat(15_500);
    String longPath = "p".repeat(2000);
    return switch (n % 10) {
      case 0, 2, 4, 6 ->
          post(
              "/api/v1/agents/enrol",
              "application/json",
              new JsonObject()
                  .put("token", "bwe_guess-" + n)
                  .put("csr", "-----BEGIN CERTIFICATE REQUEST-----")
                  .put("endpoint", big + ":9401")
                  .encode());
      case 1 ->
          post(
              "/api/v1/session",
              "application/json",
              new JsonObject().put("user", "flood-" + run).put("password", "guess-" + n).encode());
      case 3 -> post("/api/v1/session", "application/json", "{not json" + big);
      case 5 -> post("/api/v1/" + longPath, "application/json", "{\"x\":\"" + big + "\"}");
      case 7 -> "DELETE /api/v1/users/" + longPath + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
      case 8 -> post("/api/v1/agents/enrol", "text/plain", big);
      default ->
          "GET "
              + List.of("/api/v1/banner", "/healthz", "/metrics").get(n / 10 % 3)
              + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
    };
  }

  private static String post(String path, String type, String body) {
    return "POST "
        + path
        + " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
        + type
        + "\r\nContent-Length: "
        + body.getBytes(StandardCharsets.UTF_8).length
        + "\r\n\r\n"
        + body;
  }

  /**
   * Returns the records from each of {@code addresses} appended to the log since byte {@code from},
   * once each address has its refusal record (written off the event loop after the answer) or 10 s
   * have passed.
   */
  private static Map<String, List<JsonObject>> awaitRefusalRecords(
      Path log, long from, List<String> addresses) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (true) {
      Map<String, List<JsonObject>> records = new TreeMap<>();
      for (String line : appended(log, from)) {
        JsonObject r = new JsonObject(line);
        if (addresses.contains(r.getString("source"))) {
          records.computeIfAbsent(r.getString("source"), s -> new ArrayList<>()).add(r);
        }
      }
      boolean all =
          addresses.stream()
              .allMatch(
                  a ->
                      records.getOrDefault(a, List.of()).stream()
                          .anyMatch(r -> r.getString("action").equals("api.refused")));
      if (all || System.nanoTime() > deadline) {
        return records;
      }
      Thread.sleep(100);
    }
  }

  private static List<String> appended(Path log, long from) throws IOException {
    try (RandomAccessFile f = new RandomAccessFile(log.toFile(), "r")) {
      byte[] bytes = new byte[(int) (f.length() - from)];
      f.seek(from);
      f.readFully(bytes);
      String text = new String(bytes, StandardCharsets.UTF_8);
      return text.substring(0, text.lastIndexOf('\n') + 1).lines().toList();
    }
  }

  private static Map<String, Map<String, Integer>> counts(Map<String, List<JsonObject>> records) {
    Map<String, Map<String, Integer>> out = new TreeMap<>();
    records.forEach(
        (from, list) ->
            list.forEach(
                r ->
                    out.computeIfAbsent(from, f -> new TreeMap<>())
                        .merge(r.getString("action"), 1, Integer::sum)));
    return out;
  }

  /**
   * One flooding client at the local address {@code from} (java.net.http cannot choose it on Java
   * 17) on a kept-alive TLS connection, opened again when the appliance closes it.
   */
  private static final class Client {
    private final SSLContext tls;
    private final String from;
    private final int port;
    private SSLSocket socket;

    Client(SSLContext tls, String from, int port) {
      this.tls = tls;
      this.from = from;
      this.port = port;
    }

    /**
     * Sends {@code request} (head and body); returns the status, or -1 if the connection failed.
     */
    int send(String request) {
      try {
        if (socket == null || socket.isClosed()) {
          Socket plain = new Socket();
          plain.bind(new InetSocketAddress(InetAddress.getByName(from), 0));
          plain.connect(new InetSocketAddress("127.0.0.1", port), 5000);
          plain.setSoTimeout(30_000);
          socket = (SSLSocket) tls.getSocketFactory().createSocket(plain, "127.0.0.1", port, true);
        }
        OutputStream out = socket.getOutputStream();
        out.write(request.getBytes(StandardCharsets.UTF_8));
        out.flush();
        InputStream in = socket.getInputStream();
        StringBuilder head = new StringBuilder();
        while (head.indexOf("\r\n\r\n") < 0) {
          int b = in.read();
          if (b < 0) {
            throw new IOException("closed");
          }
          head.append((char) b);
        }
        String text = head.toString().toLowerCase(java.util.Locale.ROOT);
        int at = text.indexOf("content-length:");
        if (at >= 0) {
          in.readNBytes(Integer.parseInt(text.substring(at + 15, text.indexOf('\r', at)).trim()));
        }
        if (text.contains("connection: close") || text.contains("transfer-encoding")) {
          close();
        }
        return Integer.parseInt(head.substring(9, 12));
      } catch (IOException | RuntimeException e) {
        close();
        return -1;
      }
    }

    void close() {
      try {
        if (socket != null) {
          socket.close();
        }
      } catch (IOException ignored) {
        // gone already
      }
      socket = null;
    }
  }
}
