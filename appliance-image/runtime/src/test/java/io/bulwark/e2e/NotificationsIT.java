package io.bulwark.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.bulwark.testing.alerting.AlertmanagerProcess;
import io.bulwark.testing.alerting.WebhookCapture;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Findings leave the appliance, end to end through the demo jar: an Alertmanager channel to a real
 * Prometheus Alertmanager 0.25 (whose own webhook a capture server records) and a plain JSON
 * webhook whose receiver is down. A simulated XID opens a finding that arrives at Alertmanager as a
 * firing alert; the webhook's notification waits in the outbox (the System page names the channel),
 * survives {@code kill -9}, and is delivered when its receiver returns; the resolution reaches
 * Alertmanager. The Alerts page's "Send test" reports the receiver's verdict, and every channel
 * change is audited.
 */
class NotificationsIT {

  @Test
  void findingsReachTheirReceiversAndWaitOutAReceiverThatIsAwayAcrossKill9() throws Exception {
    Path work = RunningAppliance.workDir("notifications");
    Map<String, String> env = Map.of("BULWARK_SIM_SCENARIO", "none", "BULWARK_SIM_NODES", "8");
    try (WebhookCapture fromAm = WebhookCapture.start();
        WebhookCapture hook = WebhookCapture.start();
        AlertmanagerProcess am = AlertmanagerProcess.start(work.resolve("am"), fromAm.url("/am"))) {
      hook.respondWith(503, "receiver in maintenance");
      try (RunningAppliance bulwark = RunningAppliance.demo(work, env)) {
        bulwark.awaitUp(Duration.ofSeconds(60));
        assertThat(
                put(
                        bulwark,
                        "am",
                        new JsonObject()
                            .put("type", "alertmanager")
                            .put(
                                "settings",
                                new JsonObject()
                                    .put("url", am.uri().toString())
                                    .put("allowPlaintext", "true"))
                            .put("route", new JsonObject().put("minSeverity", "critical")))
                    .statusCode())
            .isEqualTo(201);
        HttpResponse<String> saved =
            put(
                bulwark,
                "hook",
                new JsonObject()
                    .put("type", "webhook")
                    .put(
                        "settings",
                        new JsonObject()
                            .put("url", hook.url("/in").toString())
                            .put("allowPlaintext", "true")
                            .put("format", "json"))
                    .put("credential", "hook-token-123")
                    .put(
                        "route",
                        new JsonObject()
                            .put("minSeverity", "warning")
                            .put("kinds", new JsonArray().add("xid"))));
        assertThat(saved.statusCode()).isEqualTo(201);
        assertThat(saved.body()).doesNotContain("hook-token-123").contains("\"credential\":true");

        // A refused setting is a 400 naming it, and changes nothing.
        HttpResponse<String> bad =
            put(
                bulwark,
                "plain",
                new JsonObject()
                    .put("type", "webhook")
                    .put("settings", new JsonObject().put("url", "http://192.0.2.1/x")));
        assertThat(bad.statusCode()).isEqualTo(400);
        assertThat(bad.body()).contains("allowPlaintext");

        HttpResponse<String> fault =
            bulwark.send(
                "POST",
                bulwark.simUrl("/sim/faults"),
                new JsonObject()
                    .put("kind", "xid")
                    .put("node", "gpu-node-003")
                    .put("gpu", 1)
                    .encode());
        assertThat(fault.statusCode()).isEqualTo(201);

        JsonObject firing = awaitWebhook(fromAm, "firing", "gpu-node-003", Duration.ofSeconds(60));
        JsonObject labels = labelsOf(firing, "gpu-node-003");
        assertThat(labels.getString("alertname")).isEqualTo("xid");
        assertThat(labels.getString("gpu")).isEqualTo("1");
        assertThat(labels.getString("severity")).isEqualTo("critical");

        // The webhook's receiver is down: its notification waits, and the System page says so.
        awaitTrue(() -> hook.requests().size() >= 1, Duration.ofSeconds(30));
        awaitTrue(
            () -> subsystem(bulwark, "notify").getString("state").equals("DEGRADED"),
            Duration.ofSeconds(20));
        assertThat(subsystem(bulwark, "notify").getString("summary"))
            .contains("channel 'hook'")
            .contains("HTTP 503");
        JsonObject hookView = channel(bulwark, "hook");
        assertThat(hookView.getJsonObject("delivery").getInteger("waiting")).isEqualTo(1);
        assertThat(hook.requests().get(0).header("Authorization"))
            .contains("Bearer hook-token-123");

        bulwark.process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
      assertThat(filesHolding(work, "hook-token-123"))
          .as("files holding the webhook's token in plain text")
          .isEmpty();

      // After kill -9: the receiver is back; the notification that waited is delivered, once.
      hook.clear();
      hook.respondWith(200);
      try (RunningAppliance bulwark = RunningAppliance.demo(work, env)) {
        bulwark.awaitUp(Duration.ofSeconds(60));
        List<WebhookCapture.Captured> got = hook.awaitRequests(1, Duration.ofSeconds(60));
        JsonObject n =
            new JsonObject(got.get(0).body()).getJsonArray("notifications").getJsonObject(0);
        assertThat(n.getString("event")).isEqualTo("opened");
        assertThat(n.getJsonObject("finding").getString("node")).isEqualTo("gpu-node-003");
        awaitTrue(
            () -> subsystem(bulwark, "notify").getString("state").equals("UP"),
            Duration.ofSeconds(30));

        // The Alerts page: both channels, and "Send test" shows the receiver's verdict.
        ChromeDriver browser = FleetPageBrowserIT.headlessChromium();
        try {
          WebDriverWait wait = FleetPageBrowserIT.logIn(browser, bulwark, Duration.ofSeconds(60));
          wait.until(d -> d.findElement(By.cssSelector("#nav a[data-nav='alerts']"))).click();
          wait.until(
              d -> d.findElements(By.cssSelector("#channel-list tr[data-channel]")).size() == 2);
          browser.findElement(By.cssSelector("button.channel-test[data-channel='hook']")).click();
          wait.until(
              d ->
                  d.findElement(By.id("alerts-test-result"))
                      .getText()
                      .contains("accepted the test"));
          Path shots = Path.of(System.getProperty("bulwark.e2e.dir", "target/e2e"));
          Files.write(
              shots.resolve("alerts.png"),
              ((TakesScreenshot) browser).getScreenshotAs(OutputType.BYTES));
        } finally {
          browser.quit();
        }
        assertThat(
                hook.requests().stream()
                    .map(
                        r ->
                            new JsonObject(r.body())
                                .getJsonArray("notifications")
                                .getJsonObject(0)
                                .getString("event"))
                    .toList())
            .containsExactly("opened", "test");

        // The restarted simulator serves no fault: the XID clears, the resolution reaches
        // Alertmanager.
        fromAm.clear();
        // The appliance's own alerts (the test notification, a target that was away) resolve too:
        // wait for the node's.
        JsonObject resolved =
            awaitWebhook(fromAm, "resolved", "gpu-node-003", Duration.ofSeconds(120));
        assertThat(labelsOf(resolved, "gpu-node-003").getString("alertname")).isEqualTo("xid");

        JsonArray audit =
            new JsonObject(bulwark.get("/api/v1/audit?action=notify.channel.save").body())
                .getJsonArray("records");
        assertThat(audit.size()).isGreaterThanOrEqualTo(3);
        assertThat(audit.encode()).doesNotContain("hook-token-123");
        JsonArray tests =
            new JsonObject(bulwark.get("/api/v1/audit?action=notify.channel.test").body())
                .getJsonArray("records");
        assertThat(tests.size()).isEqualTo(1);
      }
    }
  }

  /** Returns the files under {@code dir} (data, console log) whose bytes contain {@code text}. */
  private static List<Path> filesHolding(Path dir, String text) throws java.io.IOException {
    byte[] needle = text.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    try (var walk = Files.walk(dir)) {
      return walk.filter(Files::isRegularFile)
          .filter(
              p -> {
                try {
                  byte[] b = Files.readAllBytes(p);
                  outer:
                  for (int i = 0; i + needle.length <= b.length; i++) {
                    for (int j = 0; j < needle.length; j++) {
                      if (b[i + j] != needle[j]) {
                        continue outer;
                      }
                    }
                    return true;
                  }
                  return false;
                } catch (java.io.IOException e) {
                  return false;
                }
              })
          .toList();
    }
  }

  private static HttpResponse<String> put(RunningAppliance bulwark, String name, JsonObject body)
      throws Exception {
    return bulwark.send(
        "PUT", bulwark.baseUrl() + "/api/v1/notify/channels/" + name, body.encode());
  }

  private static JsonObject channel(RunningAppliance bulwark, String name) throws Exception {
    JsonArray channels =
        new JsonObject(bulwark.get("/api/v1/notify/channels").body()).getJsonArray("channels");
    for (int i = 0; i < channels.size(); i++) {
      if (channels.getJsonObject(i).getString("name").equals(name)) {
        return channels.getJsonObject(i);
      }
    }
    throw new AssertionError("no channel " + name + " in " + channels.encode());
  }

  private static JsonObject subsystem(RunningAppliance bulwark, String name) {
    try {
      JsonArray subsystems =
          new JsonObject(bulwark.get("/api/v1/health").body()).getJsonArray("subsystems");
      for (int i = 0; i < subsystems.size(); i++) {
        if (subsystems.getJsonObject(i).getString("subsystem").equals(name)) {
          return subsystems.getJsonObject(i);
        }
      }
      return new JsonObject().put("state", "absent").put("summary", subsystems.encode());
    } catch (Exception e) {
      return new JsonObject().put("state", "unreachable").put("summary", e.toString());
    }
  }

  private static JsonObject awaitWebhook(WebhookCapture capture, String status, Duration timeout)
      throws InterruptedException {
    return awaitWebhook(capture, status, null, timeout);
  }

  /** The labels of the webhook's alert of {@code node}. */
  private static JsonObject labelsOf(JsonObject webhook, String node) {
    return webhook.getJsonArray("alerts").stream()
        .map(a -> ((JsonObject) a).getJsonObject("labels"))
        .filter(l -> node.equals(l.getString("node")))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no alert of " + node + " in " + webhook.encode()));
  }

  /** Waits for a webhook of {@code status} with an alert of {@code node} (any node if null). */
  private static JsonObject awaitWebhook(
      WebhookCapture capture, String status, String node, Duration timeout)
      throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      for (WebhookCapture.Captured c : capture.requests()) {
        JsonObject body = new JsonObject(c.body());
        if (status.equals(body.getString("status"))
            && (node == null
                || body.getJsonArray("alerts").stream()
                    .map(a -> ((JsonObject) a).getJsonObject("labels"))
                    .anyMatch(l -> node.equals(l.getString("node"))))) {
          return body;
        }
      }
      Thread.sleep(200);
    }
    throw new AssertionError(
        "no " + status + " webhook within " + timeout + ": " + capture.requests());
  }

  private static void awaitTrue(java.util.function.BooleanSupplier condition, Duration timeout)
      throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("not within " + timeout);
      }
      Thread.sleep(200);
    }
  }
}
