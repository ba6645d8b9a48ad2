package io.bulwark.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.Base64;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The appliance's {@code /metrics} scraped by a real Prometheus 2.42 (Debian's), over HTTPS with
 * the appliance's pinned certificate as its CA and an API token as bearer credential: the target is
 * up, a scrape without the token is refused (401), and the fleet's families carry what the API
 * says: an injected XID is one open critical xid finding, eight targets up, the effective capacity.
 */
@ExtendWith(SharedAppliance.class)
class MetricsPrometheusIT {
  /** The shared fleet's node this class puts its XID on. */
  private static final String NODE = SharedAppliance.node(32);

  @Test
  void prometheusScrapesTheFleetWithATokenAndIsRefusedWithout(RunningAppliance bulwark)
      throws Exception {
    Path work = RunningAppliance.workDir("metrics-prometheus");
    JsonObject issued = Runs.issueToken(bulwark, "prometheus-" + System.nanoTime(), "auditor");
    Path prom = work.resolve("prometheus");
    Files.createDirectories(prom);
    Files.writeString(prom.resolve("token"), issued.getString("token"));
    Files.writeString(prom.resolve("ca.pem"), pem(serverCertificate(bulwark)));
    // Other classes sharing the appliance may have left XIDs of their own open.
    int xidsBefore = openCriticalXids(bulwark);
    assertThat(
            bulwark
                .send(
                    "POST",
                    bulwark.simUrl("/sim/faults"),
                    new JsonObject().put("kind", "xid").put("node", NODE).put("gpu", 5).encode())
                .statusCode())
        .isEqualTo(201);

    int port = RunningAppliance.freePort();
    String target = "localhost:" + bulwark.httpsPort;
    Files.writeString(
        prom.resolve("prometheus.yml"),
        String.join(
            "\n",
            "global:",
            "  scrape_interval: 2s",
            "  scrape_timeout: 2s",
            "scrape_configs:",
            "  - job_name: bulwark",
            "    scheme: https",
            "    authorization:",
            "      type: Bearer",
            "      credentials_file: " + prom.resolve("token"),
            "    tls_config:",
            "      ca_file: " + prom.resolve("ca.pem"),
            "    static_configs:",
            "      - targets: ['" + target + "']",
            "  - job_name: no-token",
            "    scheme: https",
            "    tls_config:",
            "      ca_file: " + prom.resolve("ca.pem"),
            "    static_configs:",
            "      - targets: ['" + target + "']",
            ""));
    Process prometheus =
        new ProcessBuilder(
                "prometheus",
                "--config.file=" + prom.resolve("prometheus.yml"),
                "--storage.tsdb.path=" + prom.resolve("data"),
                "--web.listen-address=127.0.0.1:" + port)
            .redirectErrorStream(true)
            .redirectOutput(prom.resolve("prometheus.log").toFile())
            .start();
    try {
      HttpClient http = HttpClient.newHttpClient();
      String api = "http://127.0.0.1:" + port + "/api/v1/";
      JsonObject targets = null;
      long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      while (System.nanoTime() < deadline) {
        try {
          targets = get(http, api + "targets");
          if (health(targets, "bulwark").equals("up")
              && health(targets, "no-token").equals("down")) {
            break;
          }
        } catch (java.io.IOException notYet) {
          // Prometheus not listening yet
        }
        Thread.sleep(500);
      }
      assertThat(targets).as(Files.readString(prom.resolve("prometheus.log"))).isNotNull();
      assertThat(health(targets, "bulwark")).as(targets.encode()).isEqualTo("up");
      assertThat(health(targets, "no-token")).isEqualTo("down");
      assertThat(lastError(targets, "no-token")).contains("401");

      // The fleet as the API tells it, through Prometheus' query API.
      awaitValue(
          http,
          api,
          "bulwark_findings_open{kind=\"xid\",severity=\"critical\"}",
          Integer.toString(xidsBefore + 1));
      awaitValue(http, api, "sum(bulwark_target_up)", Integer.toString(SharedAppliance.NODES));
      awaitValue(http, api, "bulwark_gpus_installed", Integer.toString(SharedAppliance.NODES * 8));
      awaitValue(http, api, "count(bulwark_findings_open)", Integer.toString(15 * 2));
      String capacity = value(get(http, api + "query?query=bulwark_capacity_effective_ratio"));
      JsonObject fromApi = new JsonObject(bulwark.get("/api/v1/capacity").body());
      assertThat(Double.parseDouble(capacity))
          .isBetween(0.0, 1.0)
          .isCloseTo(
              fromApi.getDouble("effectiveCapacity"), org.assertj.core.data.Offset.offset(0.05));
      for (String family :
          new String[] {
            "bulwark_up", "bulwark_subsystem_state", "bulwark_engine_last_evaluation_seconds",
            "bulwark_store_file_bytes", "bulwark_jvm_heap_used_bytes", "bulwark_gpu_hours_lost_24h",
            "bulwark_target_scrape_duration_seconds", "bulwark_notify_waiting"
          }) {
        assertThat(
                get(http, api + "query?query=" + family)
                    .getJsonObject("data")
                    .getJsonArray("result"))
            .as(family)
            .isNotEmpty();
      }
    } finally {
      prometheus.destroy();
      prometheus.waitFor(10, TimeUnit.SECONDS);
    }
  }

  private static void awaitValue(HttpClient http, String api, String query, String expected)
      throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    String last = null;
    while (System.nanoTime() < deadline) {
      last =
          value(
              get(
                  http,
                  api
                      + "query?query="
                      + java.net.URLEncoder.encode(query, StandardCharsets.UTF_8)));
      if (expected.equals(last)) {
        return;
      }
      Thread.sleep(500);
    }
    throw new AssertionError(query + " was " + last + ", not " + expected);
  }

  private static String value(JsonObject answer) {
    JsonArray result = answer.getJsonObject("data").getJsonArray("result");
    return result.isEmpty() ? null : result.getJsonObject(0).getJsonArray("value").getString(1);
  }

  private static JsonObject get(HttpClient http, String url) throws Exception {
    HttpResponse<String> r =
        http.send(
            HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(5)).build(),
            HttpResponse.BodyHandlers.ofString());
    return new JsonObject(r.body());
  }

  private static String health(JsonObject targets, String job) {
    for (Object o : targets.getJsonObject("data").getJsonArray("activeTargets")) {
      JsonObject t = (JsonObject) o;
      if (job.equals(t.getJsonObject("labels").getString("job"))) {
        return t.getString("health");
      }
    }
    return "absent";
  }

  private static String lastError(JsonObject targets, String job) {
    for (Object o : targets.getJsonObject("data").getJsonArray("activeTargets")) {
      JsonObject t = (JsonObject) o;
      if (job.equals(t.getJsonObject("labels").getString("job"))) {
        return t.getString("lastError");
      }
    }
    return "";
  }

  /** The appliance's certificate, as the pinned client (the console's fingerprint) accepted it. */
  private static X509Certificate serverCertificate(RunningAppliance bulwark) throws Exception {
    try (SSLSocket s =
        (SSLSocket)
            PinnedCertificate.context(bulwark.dataDir.getParent().resolve("console.log"))
                .getSocketFactory()
                .createSocket("127.0.0.1", bulwark.httpsPort)) {
      s.startHandshake();
      return (X509Certificate) s.getSession().getPeerCertificates()[0];
    }
  }

  private static String pem(X509Certificate cert) throws Exception {
    return "-----BEGIN CERTIFICATE-----\n"
        + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
            .encodeToString(cert.getEncoded())
        + "\n-----END CERTIFICATE-----\n";
  }

  /** The open critical XID findings the API lists now. */
  private static int openCriticalXids(RunningAppliance bulwark) throws Exception {
    HttpResponse<String> r = bulwark.get("/api/v1/findings?state=open&kind=xid&limit=1000");
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    return (int)
        new JsonObject(r.body())
            .getJsonArray("findings").stream()
                .map(JsonObject.class::cast)
                .filter(f -> "xid".equals(f.getString("kind")))
                .filter(f -> "critical".equals(f.getString("severity")))
                .count();
  }
}
