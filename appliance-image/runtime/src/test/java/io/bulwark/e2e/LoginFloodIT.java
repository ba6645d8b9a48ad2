package io.bulwark.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.Test;

/**
 * A flood of wrong passwords from 64 addresses at once cannot slow the appliance or keep its
 * administrators out: each address gets a small budget of attempts (then 429), the hashing runs on
 * a small pool of its own (the health page keeps answering at once), and the pool serves the
 * clients that have not failed first. So the administrator logs in at the console (127.0.0.1), and
 * an operator from addresses the appliance has never seen, within a second every time, while the
 * flood waits behind them or is answered 503. (The administrator cannot log in from elsewhere
 * meanwhile: the flood's wrong passwords have locked the account for every address but the
 * console.) The demo runs its 64 simulated nodes without BMCs (no machines to add and deploy), and
 * the flood starts once the appliance has finished starting: in its first seconds the JIT compilers
 * take a core, which would measure the start, not the flood.
 */
class LoginFloodIT {
  private static final int FLOODERS = 64;
  private static final int CONSOLE_LOGINS = 12;
  private static final int NEW_ADDRESSES = 10;

  /**
   * Between two logins at the console: 12 fit the console's own login budget (a burst of 10, then
   * one every 3 s) with two to spare.
   */
  private static final long CONSOLE_LOGIN_EVERY_MILLIS = 1100;

  /** Between two first logins from new addresses, each a budget of its own. */
  private static final long NEW_ADDRESS_LOGIN_EVERY_MILLIS = 1100;

  @Test
  void administratorsWhoHaveNotFailedLogInWithinASecondThroughoutALoginFlood() throws Exception {
    Path work = RunningAppliance.workDir("login-flood");
    try (RunningAppliance bulwark = RunningAppliance.demo(work, Map.of("BULWARK_SIM_BMCS", "0"))) {
      bulwark.awaitUp(Duration.ofSeconds(60));
      SSLContext tls = PinnedCertificate.context(bulwark.log);

      // Given an appliance that has finished starting, with an operator
      String operator = "ops-" + Long.toString(System.nanoTime(), 36);
      String operatorPassword = "Initial-Operator-Pass-7";
      assertThat(
              bulwark
                  .send(
                      "POST",
                      "/api/v1/users",
                      new JsonObject()
                          .put("name", operator)
                          .put("role", "operator")
                          .put("password", operatorPassword)
                          .encode())
                  .statusCode())
          .isEqualTo(201);
      double settled = awaitSettled(bulwark, Duration.ofSeconds(90));

      // and 64 other loopback addresses posting wrong passwords for admin as fast as answered,
      // each long enough to be hashed (the FIPS module refuses to hash fewer than 14 bytes)
      AtomicBoolean flooding = new AtomicBoolean(true);
      Map<Integer, LongAdder> statuses = new ConcurrentHashMap<>();
      List<LoopbackClient> flooders = new ArrayList<>();
      ExecutorService flood = Executors.newFixedThreadPool(FLOODERS);
      long floodStart = System.nanoTime();
      for (int i = 0; i < FLOODERS; i++) {
        LoopbackClient flooder = new LoopbackClient(tls, "127.0.0." + (2 + i), bulwark.httpsPort);
        flooders.add(flooder);
        flood.submit(
            () -> {
              int n = 0;
              while (flooding.get()) {
                int status = flooder.login("admin", "Wrong-Password-" + n++);
                if (flooding.get()) {
                  statuses.computeIfAbsent(status, s -> new LongAdder()).increment();
                }
              }
              return null;
            });
      }
      long firstAnswers = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (statuses.values().stream().mapToLong(LongAdder::sum).sum() < FLOODERS / 4) {
        assertThat(System.nanoTime()).as("the flood's first answers").isLessThan(firstAnswers);
        Thread.sleep(100);
      }

      // When the administrator reads the health page every 200 ms and logs in 12 times at the
      // console, and the operator logs in once each from 10 addresses never seen before
      // (127.0.1.1 to 127.0.1.10)
      List<Double> health = new ArrayList<>();
      List<Double> console = new ArrayList<>();
      List<Double> newAddresses = new ArrayList<>();
      List<Integer> newAddressAnswers = new ArrayList<>();
      long measureStart = System.nanoTime();
      while (console.size() < CONSOLE_LOGINS || newAddresses.size() < NEW_ADDRESSES) {
        long start = System.nanoTime();
        assertThat(bulwark.get("/api/v1/health").statusCode()).isEqualTo(200);
        health.add(seconds(start));
        if (health.get(health.size() - 1) > 0.3) {
          System.out.printf(
              "slow health call %d: %.3f s%n", health.size(), health.get(health.size() - 1));
        }
        if (console.size() < CONSOLE_LOGINS
            && System.nanoTime() >= due(measureStart, 0, CONSOLE_LOGIN_EVERY_MILLIS, console)) {
          long loginStart = System.nanoTime();
          bulwark.login();
          console.add(seconds(loginStart));
        }
        long offset = CONSOLE_LOGIN_EVERY_MILLIS / 2;
        if (newAddresses.size() < NEW_ADDRESSES
            && System.nanoTime()
                >= due(measureStart, offset, NEW_ADDRESS_LOGIN_EVERY_MILLIS, newAddresses)) {
          LoopbackClient client =
              new LoopbackClient(tls, "127.0.1." + (1 + newAddresses.size()), bulwark.httpsPort);
          long loginStart = System.nanoTime();
          newAddressAnswers.add(client.login(operator, operatorPassword));
          newAddresses.add(seconds(loginStart));
          client.close();
        }
        Thread.sleep(200);
      }
      double floodSeconds = seconds(floodStart);
      flooding.set(false);
      flooders.forEach(LoopbackClient::close);
      flood.shutdown();
      assertThat(flood.awaitTermination(30, TimeUnit.SECONDS)).isTrue();

      // Then
      List<Double> logins = new ArrayList<>(console);
      logins.addAll(newAddresses);
      long answers = statuses.values().stream().mapToLong(LongAdder::sum).sum();
      long refused = statuses.getOrDefault(401, new LongAdder()).sum();
      double medianHealth = percentile(health, 50);
      double slowestHealth = percentile(health, 100);
      System.out.printf(
          "login flood from %d addresses for %.1f s, once the appliance settled (%.1f s): %d"
              + " answers (%.1f/s), %d wrong passwords answered (%.1f/s), answers %s;"
              + " administrator: %d health calls, median %.3f s, slowest %.3f s; logins p50 %.3f"
              + " s, p99 %.3f s: %d at the console, p50 %.3f s, p99 %.3f s, %s; %d by the"
              + " operator from new addresses, p50 %.3f s, p99 %.3f s, %s, answered %s%n",
          FLOODERS,
          floodSeconds,
          settled,
          answers,
          answers / floodSeconds,
          refused,
          refused / floodSeconds,
          statuses,
          health.size(),
          medianHealth,
          slowestHealth,
          percentile(logins, 50),
          percentile(logins, 99),
          console.size(),
          percentile(console, 50),
          percentile(console, 99),
          rounded(console),
          newAddresses.size(),
          percentile(newAddresses, 50),
          percentile(newAddresses, 99),
          rounded(newAddresses),
          newAddressAnswers);
      assertThat(statuses.keySet()).as("answers to the flood").containsAnyOf(429, 503);
      assertThat(statuses.keySet()).as("no answer is an error").allMatch(s -> s < 500 || s == 503);
      assertThat(newAddressAnswers).as("first logins from new addresses").containsOnly(201);
      assertThat(medianHealth).as("median health answer (s)").isLessThan(0.1);
      assertThat(slowestHealth)
          .as("slowest health answer, the flood's first 64 TLS handshakes included (s)")
          .isLessThan(2.0);
      assertThat(percentile(logins, 99))
          .as("p99 of the logins at the console and from new addresses (s)")
          .isLessThanOrEqualTo(1.0);
    }
  }

  /**
   * Waits until the appliance has finished starting: its process has used less than a quarter of a
   * core over 3 s (the JIT compilers done with it); returns the seconds waited.
   */
  private static double awaitSettled(RunningAppliance appliance, Duration timeout)
      throws Exception {
    long start = System.nanoTime();
    long deadline = start + timeout.toNanos();
    List<Long> cpu = new ArrayList<>();
    while (true) {
      cpu.add(cpuNanos(appliance.process));
      int n = cpu.size();
      if (n > 3 && cpu.get(n - 1) - cpu.get(n - 4) < TimeUnit.MILLISECONDS.toNanos(750)) {
        return seconds(start);
      }
      assertThat(System.nanoTime())
          .as("the appliance settling after its start (its CPU time, in ns, each second: %s)", cpu)
          .isLessThan(deadline);
      Thread.sleep(1000);
    }
  }

  private static long cpuNanos(Process process) {
    return process.toHandle().info().totalCpuDuration().orElseThrow().toNanos();
  }

  /** When the next of {@code done} is due: {@code offset}, then one every {@code every} ms. */
  private static long due(long start, long offset, long every, List<Double> done) {
    return start + TimeUnit.MILLISECONDS.toNanos(offset + every * done.size());
  }

  private static List<String> rounded(List<Double> seconds) {
    return seconds.stream().map(s -> String.format("%.2f", s)).toList();
  }

  private static double seconds(long sinceNanos) {
    return (System.nanoTime() - sinceNanos) / 1e9;
  }

  /** The nearest-rank percentile {@code p} of {@code values}. */
  private static double percentile(List<Double> values, int p) {
    List<Double> sorted = values.stream().sorted().toList();
    int rank = (int) Math.ceil(p / 100.0 * sorted.size());
    return sorted.get(Math.max(0, rank - 1));
  }

  /**
   * One client at the local address {@code from} (java.net.http cannot choose it on Java 17) on one
   * kept-alive TLS connection, as a cheap attacker would flood: the appliance's work, not the
   * test's, is what is measured.
   */
  private static final class LoopbackClient {
    private final SSLContext tls;
    private final String from;
    private final int port;
    private volatile SSLSocket socket;

    LoopbackClient(SSLContext tls, String from, int port) {
      this.tls = tls;
      this.from = from;
      this.port = port;
    }

    /** Posts a login; returns the status, or -1 if the connection failed. */
    int login(String user, String password) {
      String json = "{\"user\":\"" + user + "\",\"password\":\"" + password + "\"}";
      try {
        if (socket == null || socket.isClosed()) {
          Socket plain = new Socket();
          plain.bind(new InetSocketAddress(InetAddress.getByName(from), 0));
          plain.connect(new InetSocketAddress("127.0.0.1", port), 5000);
          plain.setSoTimeout(30_000);
          socket = (SSLSocket) tls.getSocketFactory().createSocket(plain, "127.0.0.1", port, true);
        }
        byte[] body = json.getBytes(StandardCharsets.UTF_8);
        OutputStream out = socket.getOutputStream();
        out.write(
            ("POST /api/v1/session HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                    + "Content-Type: application/json\r\nContent-Length: "
                    + body.length
                    + "\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
        out.write(body);
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
        if (text.contains("connection: close")) {
          socket.close();
        }
        return Integer.parseInt(head.substring(9, 12));
      } catch (IOException | RuntimeException e) {
        close();
        return -1;
      }
    }

    /** Closes the connection: a login waiting on it ends at once. */
    void close() {
      try {
        if (socket != null) {
          socket.close();
        }
      } catch (IOException ignored) {
        // gone already
      }
    }
  }
}
