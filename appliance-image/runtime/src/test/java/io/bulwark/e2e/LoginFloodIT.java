package io.bulwark.e2e;

import static org.assertj.core.api.Assertions.assertThat;

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
 * administrator out: each address gets a small budget of attempts (then 429), the hashing runs on a
 * small pool of its own (the health page keeps answering at once), and the pool serves clients that
 * have not failed first, so that the administrator at the console, who has not failed, logs in
 * within a second every time while the flood waits behind them (or is answered 503).
 */
class LoginFloodIT {
  private static final int FLOODERS = 64;
  private static final int ADMIN_LOGINS = 20;

  /**
   * Between two of the administrator's logins: 20 logins fit the console's own login budget (a
   * burst of 10, then one every 3 s) with a login to spare.
   */
  private static final long ADMIN_LOGIN_EVERY_MILLIS = 1800;

  @Test
  void theAdministratorLogsInWithinASecondAndTheHealthPageAnswersThroughoutALoginFlood()
      throws Exception {
    Path work = RunningAppliance.workDir("login-flood");
    try (RunningAppliance bulwark = RunningAppliance.demo(work, Map.of())) {
      bulwark.awaitUp(Duration.ofSeconds(60));
      SSLContext tls = PinnedCertificate.context(bulwark.log);

      // Given 64 other loopback addresses posting wrong passwords for admin as fast as answered,
      // each long enough to be hashed (the FIPS module refuses to hash fewer than 14 bytes)
      AtomicBoolean flooding = new AtomicBoolean(true);
      Map<Integer, LongAdder> statuses = new ConcurrentHashMap<>();
      List<Flooder> flooders = new ArrayList<>();
      ExecutorService flood = Executors.newFixedThreadPool(FLOODERS);
      long floodStart = System.nanoTime();
      for (int i = 0; i < FLOODERS; i++) {
        Flooder flooder = new Flooder(tls, "127.0.0." + (2 + i), bulwark.httpsPort);
        flooders.add(flooder);
        flood.submit(
            () -> {
              int n = 0;
              while (flooding.get()) {
                String json = "{\"user\":\"admin\",\"password\":\"Wrong-Password-" + n++ + "\"}";
                int status = flooder.login(json);
                if (flooding.get()) {
                  statuses.computeIfAbsent(status, s -> new LongAdder()).increment();
                }
              }
              return null;
            });
      }
      Thread.sleep(2000);

      // When the administrator reads the health page every 200 ms and logs in 20 times from the
      // console (127.0.0.1), an address that has not failed
      List<Double> health = new ArrayList<>();
      List<Double> logins = new ArrayList<>();
      long measureStart = System.nanoTime();
      while (logins.size() < ADMIN_LOGINS) {
        long start = System.nanoTime();
        assertThat(bulwark.get("/api/v1/health").statusCode()).isEqualTo(200);
        health.add(seconds(start));
        if (health.get(health.size() - 1) > 0.3) {
          System.out.printf(
              "slow health call %d: %.3f s%n", health.size(), health.get(health.size() - 1));
        }
        long due =
            measureStart + TimeUnit.MILLISECONDS.toNanos(ADMIN_LOGIN_EVERY_MILLIS) * logins.size();
        if (System.nanoTime() >= due) {
          long loginStart = System.nanoTime();
          bulwark.login();
          logins.add(seconds(loginStart));
        }
        Thread.sleep(200);
      }
      double floodSeconds = seconds(floodStart);
      flooding.set(false);
      flooders.forEach(Flooder::close);
      flood.shutdown();
      assertThat(flood.awaitTermination(30, TimeUnit.SECONDS)).isTrue();

      // Then
      long answers = statuses.values().stream().mapToLong(LongAdder::sum).sum();
      long checked = statuses.getOrDefault(401, new LongAdder()).sum();
      double medianHealth = percentile(health, 50);
      double slowestHealth = percentile(health, 100);
      double loginP50 = percentile(logins, 50);
      double loginP99 = percentile(logins, 99);
      System.out.printf(
          "login flood from %d addresses for %.1f s: %d answers (%.1f/s), %d password checks"
              + " (%.1f/s), answers %s; administrator: %d health calls, median %.3f s, slowest"
              + " %.3f s; %d logins, p50 %.3f s, p99 %.3f s, all %s%n",
          FLOODERS,
          floodSeconds,
          answers,
          answers / floodSeconds,
          checked,
          checked / floodSeconds,
          statuses,
          health.size(),
          medianHealth,
          slowestHealth,
          logins.size(),
          loginP50,
          loginP99,
          logins.stream().map(s -> String.format("%.2f", s)).toList());
      assertThat(statuses.keySet()).as("answers to the flood").containsAnyOf(429, 503);
      assertThat(statuses.keySet()).as("no answer is an error").allMatch(s -> s < 500 || s == 503);
      assertThat(medianHealth).as("median health answer (s)").isLessThan(0.1);
      assertThat(slowestHealth)
          .as("slowest health answer, the flood's first 64 TLS handshakes included (s)")
          .isLessThan(2.0);
      assertThat(loginP99).as("p99 of the administrator's logins (s)").isLessThanOrEqualTo(1.0);
    }
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
   * One flooding client at the local address {@code from} (java.net.http cannot choose it on Java
   * 17) on one kept-alive TLS connection, as a cheap attacker would: the appliance's work, not the
   * test's, is what is measured.
   */
  private static final class Flooder {
    private final SSLContext tls;
    private final String from;
    private final int port;
    private volatile SSLSocket socket;

    Flooder(SSLContext tls, String from, int port) {
      this.tls = tls;
      this.from = from;
      this.port = port;
    }

    /** Posts a login; returns the status, or -1 if the connection failed. */
    int login(String json) {
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
