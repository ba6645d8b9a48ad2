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
 * administrator out: each address gets a small budget of attempts (then 429), the hashing runs on
 * workers of its own (the health page keeps answering at once), and the administrator, who logged
 * in from this address before, logs in on a lane of their own throughout.
 */
class LoginFloodIT {
  private static final int FLOODERS = 64;

  @Test
  void theAdministratorLogsInAndTheHealthPageAnswersThroughoutALoginFlood() throws Exception {
    Path work = RunningAppliance.workDir("login-flood");
    try (RunningAppliance bulwark = RunningAppliance.demo(work, Map.of())) {
      bulwark.awaitUp(Duration.ofSeconds(60));
      SSLContext tls = PinnedCertificate.context(bulwark.log);
      AtomicBoolean flooding = new AtomicBoolean(true);
      Map<Integer, LongAdder> statuses = new ConcurrentHashMap<>();
      ExecutorService flood = Executors.newFixedThreadPool(FLOODERS);
      for (int i = 0; i < FLOODERS; i++) {
        String from = "127.0.1." + (10 + i);
        flood.submit(
            () -> {
              Flooder flooder = new Flooder(tls, from, bulwark.httpsPort);
              int n = 0;
              while (flooding.get()) {
                String json = "{\"user\":\"admin\",\"password\":\"guess-" + n++ + "\"}";
                int status = flooder.login(json);
                statuses.computeIfAbsent(status, s -> new LongAdder()).increment();
              }
              return null;
            });
      }
      Thread.sleep(2000);

      List<Double> health = new ArrayList<>();
      List<Double> logins = new ArrayList<>();
      long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
      while (System.nanoTime() < end) {
        long start = System.nanoTime();
        assertThat(bulwark.get("/api/v1/health").statusCode()).isEqualTo(200);
        health.add((System.nanoTime() - start) / 1e9);
        if (health.get(health.size() - 1) > 0.3) {
          System.out.printf(
              "slow health call %d: %.3f s%n", health.size(), health.get(health.size() - 1));
        }
        if (health.size() % 10 == 0) {
          long loginStart = System.nanoTime();
          bulwark.login();
          logins.add((System.nanoTime() - loginStart) / 1e9);
        }
        Thread.sleep(200);
      }
      flooding.set(false);
      flood.shutdown();
      assertThat(flood.awaitTermination(60, TimeUnit.SECONDS)).isTrue();

      double slowestHealth = health.stream().mapToDouble(Double::doubleValue).max().orElseThrow();
      double medianHealth = health.stream().sorted().toList().get(health.size() / 2);
      double slowestLogin = logins.stream().mapToDouble(Double::doubleValue).max().orElseThrow();
      System.out.printf(
          "login flood from %d addresses: answers %s; administrator: %d health calls, median %.3f"
              + " s, slowest %.3f s; %d logins, slowest %.3f s%n",
          FLOODERS,
          statuses,
          health.size(),
          medianHealth,
          slowestHealth,
          logins.size(),
          slowestLogin);
      assertThat(statuses.keySet()).as("answers to the flood").containsAnyOf(429, 503);
      assertThat(statuses.keySet()).as("no answer is an error").allMatch(s -> s < 500 || s == 503);
      assertThat(medianHealth).as("median health answer (s)").isLessThan(0.1);
      assertThat(slowestHealth)
          .as("slowest health answer, the flood's first 64 TLS handshakes included (s)")
          .isLessThan(2.0);
      assertThat(logins).hasSizeGreaterThanOrEqualTo(3);
      assertThat(slowestLogin).as("slowest administrator login (s)").isLessThan(3.0);
    }
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
    private SSLSocket socket;

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
        try {
          if (socket != null) {
            socket.close();
          }
        } catch (IOException ignored) {
          // gone already
        }
        return -1;
      }
    }
  }
}
