package io.bulwark.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.Test;

/**
 * A slowloris from one address cannot stall the admin plane: while a client at 127.0.0.2 opens
 * thousands of connections and trickles request headers on every one it keeps, the administrator at
 * 127.0.0.1 logs in and reads the health page throughout, each answer within two seconds. The
 * attacker keeps no more than the per-address cap, every connection beyond it is closed as it is
 * accepted, and the ones it kept are closed by the header deadline; the appliance says so on the
 * health page and in {@code /metrics}.
 */
class SlowClientsIT {
  private static final String ATTACKER = "127.0.0.2";
  private static final int ATTEMPTS = 5_000;
  private static final int PER_ADDRESS_CAP = 64;

  @Test
  void theAdminPlaneAnswersALegitimateClientThroughoutASlowlorisFromAnotherAddress()
      throws Exception {
    Path work = RunningAppliance.workDir("slow-clients");
    try (RunningAppliance bulwark = RunningAppliance.demo(work, Map.of("BULWARK_SIM_BMCS", "0"))) {
      bulwark.awaitUp(Duration.ofSeconds(60));
      SSLContext tls = PinnedCertificate.context(bulwark.log);
      AtomicBoolean attacking = new AtomicBoolean(true);
      long attackStart = System.nanoTime();
      LongAdder attempts = new LongAdder();
      LongAdder refusedAtOnce = new LongAdder();
      AtomicInteger heldNow = new AtomicInteger();
      AtomicInteger heldMost = new AtomicInteger();
      LongAdder closedByDeadline = new LongAdder();
      ConcurrentLinkedQueue<Socket> held = new ConcurrentLinkedQueue<>();
      // Eight connecting threads: a slowloris holds connections, it need not saturate the two
      // cores this test shares with the appliance.
      AtomicLong attackDoneNanos = new AtomicLong();
      // Each thread claims a connection before it opens it, so that the eight open ATTEMPTS in all.
      AtomicLong claimed = new AtomicLong();
      ExecutorService attackers = Executors.newFixedThreadPool(8);
      for (int t = 0; t < 8; t++) {
        attackers.submit(
            () -> {
              while (attacking.get() && claimed.getAndIncrement() < ATTEMPTS) {
                attempts.increment();
                Socket s = openFromAttacker(bulwark.httpsPort);
                if (s == null || closedWithin(s, 300)) {
                  refusedAtOnce.increment();
                  close(s);
                  continue;
                }
                heldMost.accumulateAndGet(heldNow.incrementAndGet(), Math::max);
                held.add(slowloris(s, tls, bulwark.httpsPort));
              }
              attackDoneNanos.compareAndSet(0, System.nanoTime());
              return null;
            });
      }
      Thread trickler =
          new Thread(
              () -> {
                while (attacking.get()) {
                  for (Socket s : held) {
                    if (!trickle(s)) {
                      held.remove(s);
                      heldNow.decrementAndGet();
                      closedByDeadline.increment();
                      close(s);
                    }
                  }
                  sleep(1000);
                }
              });
      trickler.start();

      // the administrator works throughout
      List<Double> latencies = new ArrayList<>();
      List<String> failures = new ArrayList<>();
      // Long enough for the header deadline (10 s) to close what the attacker holds.
      long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(16);
      int logins = 0;
      while (System.nanoTime() < end) {
        long start = System.nanoTime();
        try {
          if (latencies.size() % 20 == 0) {
            bulwark.login();
            logins++;
          }
          HttpResponse<String> health = bulwark.get("/api/v1/health");
          if (health.statusCode() != 200) {
            failures.add(health.statusCode() + " " + health.body());
          }
        } catch (IOException | AssertionError e) {
          failures.add(e.toString());
        }
        latencies.add((System.nanoTime() - start) / 1e9);
        Thread.sleep(200);
      }
      attacking.set(false);
      attackers.shutdown();
      assertThat(attackers.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
      trickler.join(10_000);

      System.out.printf(
          "slowloris: %d attempts in %.1f s, %d refused at accept, at most %d held, %d closed by"
              + " the header deadline; admin: %d calls, slowest %.3f s%n",
          attempts.sum(),
          (attackDoneNanos.get() - attackStart) / 1e9,
          refusedAtOnce.sum(),
          heldMost.get(),
          closedByDeadline.sum(),
          latencies.size(),
          latencies.stream().mapToDouble(Double::doubleValue).max().orElseThrow());
      assertThat(failures).as("the administrator's failed calls").isEmpty();
      assertThat(latencies.stream().mapToDouble(Double::doubleValue).max().orElseThrow())
          .as("slowest answer to the administrator, a login with its password hash included (s)")
          .isLessThan(3.0);
      assertThat(logins).isGreaterThan(2);
      assertThat(attempts.sum()).as("connections the attacker opened").isEqualTo(ATTEMPTS);
      assertThat(heldMost.get())
          .as("connections the attacker held at once")
          .isLessThanOrEqualTo(PER_ADDRESS_CAP);
      assertThat(refusedAtOnce.sum()).isGreaterThan(ATTEMPTS - 10L * PER_ADDRESS_CAP);
      assertThat(closedByDeadline.sum())
          .as("slowloris connections closed by the header deadline")
          .isGreaterThan(0);
      for (Socket s : held) {
        close(s);
      }

      JsonObject health = new JsonObject(bulwark.get("/api/v1/health").body());
      JsonObject connections = subsystem(health.getJsonArray("subsystems"), "connections");
      assertThat(connections.getString("state")).isEqualTo("DEGRADED");
      assertThat(connections.getString("summary")).contains(ATTACKER);
      String metrics = bulwark.get("/metrics").body();
      assertThat(metric(metrics, "bulwark_connections_refused_per_source_total"))
          .isGreaterThan(ATTEMPTS - 10.0 * PER_ADDRESS_CAP);
    }
  }

  private static Socket openFromAttacker(int port) {
    Socket s = new Socket();
    try {
      s.bind(new InetSocketAddress(InetAddress.getByName(ATTACKER), 0));
      s.connect(new InetSocketAddress("127.0.0.1", port), 2000);
      return s;
    } catch (IOException e) {
      close(s);
      return null;
    }
  }

  /** Returns true if the server closes {@code s} within {@code millis}. */
  private static boolean closedWithin(Socket s, int millis) {
    try {
      s.setSoTimeout(millis);
      return s.getInputStream().read() < 0;
    } catch (SocketTimeoutException open) {
      return false;
    } catch (IOException reset) {
      return true;
    }
  }

  /** Completes the TLS handshake on a kept connection and sends the start of a request. */
  private static Socket slowloris(Socket s, SSLContext tls, int port) {
    try {
      SSLSocket ssl = (SSLSocket) tls.getSocketFactory().createSocket(s, "127.0.0.1", port, true);
      ssl.setSoTimeout(5000);
      ssl.startHandshake();
      OutputStream out = ssl.getOutputStream();
      out.write(
          "GET /api/v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\n".getBytes(StandardCharsets.US_ASCII));
      out.flush();
      return ssl;
    } catch (IOException e) {
      return s; // the handshake timed out or was cut: the trickler sees it closed
    }
  }

  /** Sends one more header line; returns false once the server has closed the connection. */
  private static boolean trickle(Socket s) {
    try {
      if (s.isClosed()) {
        return false;
      }
      s.setSoTimeout(1);
      try {
        if (s.getInputStream().read() < 0) {
          return false;
        }
      } catch (SocketTimeoutException stillOpen) {
        // nothing to read, as expected
      }
      s.getOutputStream().write("X-a: b\r\n".getBytes(StandardCharsets.US_ASCII));
      s.getOutputStream().flush();
      return true;
    } catch (IOException closed) {
      return false;
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

  static double metric(String page, String name) {
    for (String line : page.split("\n")) {
      if (line.startsWith(name + " ")) {
        return Double.parseDouble(line.substring(name.length() + 1).trim());
      }
    }
    throw new AssertionError("no metric " + name + " in\n" + page);
  }

  private static void close(Socket s) {
    if (s != null) {
      try {
        s.close();
      } catch (IOException ignored) {
        // already closed
      }
    }
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
