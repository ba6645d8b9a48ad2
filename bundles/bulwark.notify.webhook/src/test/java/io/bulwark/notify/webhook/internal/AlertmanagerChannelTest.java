package io.bulwark.notify.webhook.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bulwark.api.fleet.NodeId;
import io.bulwark.api.health.Finding;
import io.bulwark.api.health.FindingState;
import io.bulwark.api.health.Severity;
import io.bulwark.notify.api.ChannelConfig;
import io.bulwark.notify.api.ChannelSender;
import io.bulwark.notify.api.DeliveryException;
import io.bulwark.notify.api.Notification;
import io.bulwark.notify.api.Notification.Event;
import io.bulwark.testing.alerting.AlertmanagerProcess;
import io.bulwark.testing.alerting.AlertmanagerWebhookSamples;
import io.bulwark.testing.alerting.WebhookCapture;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The HTTP channels against a real Prometheus Alertmanager 0.25 started on loopback: findings sent
 * to its alert API come out of its webhook as Alertmanager alerts (with the fingerprint Bulwark
 * computes), and Bulwark's own webhook message in the Alertmanager format has the fields, types and
 * values of the one Alertmanager sends for the same alert, so receivers written for Alertmanager
 * take it unchanged.
 */
class AlertmanagerChannelTest {
  @TempDir Path dir;

  @BeforeAll
  static void fips() {
    io.bulwark.testing.FipsProviders.install();
  }

  @Test
  void findingsSentToAlertmanagerComeOutOfItsWebhookFiringThenResolved() throws Exception {
    try (WebhookCapture hook = WebhookCapture.start();
        AlertmanagerProcess am = AlertmanagerProcess.start(dir, hook.url("/hook"))) {
      ChannelConfig config =
          config("am", Map.of("url", am.uri().toString(), "allowPlaintext", "true"));
      try (ChannelSender sender = new AlertmanagerChannel().open(config)) {
        assertEquals(Duration.ofMinutes(1), sender.refreshEvery());
        Notification opened = notification(Event.OPENED, finding());
        sender.send(List.of(opened));
        JsonObject firing =
            new JsonObject(hook.awaitRequests(1, Duration.ofSeconds(15)).get(0).body());
        assertEquals("firing", firing.getString("status"));
        JsonObject alert = firing.getJsonArray("alerts").getJsonObject(0);
        JsonObject labels = alert.getJsonObject("labels");
        assertEquals("xid", labels.getString("alertname"));
        assertEquals("dgx-a07", labels.getString("node"));
        assertEquals("3", labels.getString("gpu"));
        assertEquals("critical", labels.getString("severity"));
        assertEquals("a07", labels.getString("rack"));
        assertEquals("bulwark", labels.getString("source"));
        assertEquals(
            "XID 79 (GPU fallen off the bus)",
            alert.getJsonObject("annotations").getString("summary"));
        assertEquals(SINCE.toString(), alert.getString("startsAt"));
        assertEquals("https://bulwark.example:8443/#/findings", alert.getString("generatorURL"));
        // Alertmanager's own fingerprint of the labels equals Bulwark's.
        assertEquals(
            Alerts.fingerprint(Alerts.labels(opened, config)), alert.getString("fingerprint"));

        hook.clear();
        Finding resolved = finding().resolve(Instant.now().minusSeconds(5));
        sender.send(List.of(notification(Event.RESOLVED, resolved)));
        JsonObject done =
            new JsonObject(hook.awaitRequests(1, Duration.ofSeconds(15)).get(0).body());
        assertEquals("resolved", done.getString("status"));
        assertEquals(
            alert.getString("fingerprint"),
            done.getJsonArray("alerts").getJsonObject(0).getString("fingerprint"));
      }
    }
  }

  @Test
  void bulwarksWebhookInTheAlertmanagerFormatMatchesWhatAlertmanagerSends() throws Exception {
    try (WebhookCapture fromAm = WebhookCapture.start();
        WebhookCapture fromBulwark = WebhookCapture.start();
        AlertmanagerProcess am = AlertmanagerProcess.start(dir, fromAm.url("/hook"))) {
      ChannelConfig toAm =
          config("am", Map.of("url", am.uri().toString(), "allowPlaintext", "true"));
      ChannelConfig direct =
          config(
              AlertmanagerProcess.RECEIVER,
              Map.of("url", fromBulwark.url("/hook").toString(), "allowPlaintext", "true"));
      Notification opened = notification(Event.OPENED, finding());
      try (ChannelSender viaAm = new AlertmanagerChannel().open(toAm);
          ChannelSender hook = new WebhookChannel().open(direct)) {
        viaAm.send(List.of(opened));
        hook.send(List.of(opened));
      }
      JsonObject real =
          new JsonObject(fromAm.awaitRequests(1, Duration.ofSeconds(15)).get(0).body());
      JsonObject ours =
          new JsonObject(fromBulwark.awaitRequests(1, Duration.ofSeconds(5)).get(0).body());
      assertSameShape(real, ours, "");
      assertSameShape(new JsonObject(AlertmanagerWebhookSamples.firing()), ours, "");
      JsonObject realAlert = real.getJsonArray("alerts").getJsonObject(0);
      JsonObject ourAlert = ours.getJsonArray("alerts").getJsonObject(0);
      for (String field :
          List.of(
              "status",
              "labels",
              "annotations",
              "startsAt",
              "endsAt",
              "fingerprint",
              "generatorURL")) {
        assertEquals(realAlert.getValue(field), ourAlert.getValue(field), field);
      }
      assertEquals(real.getString("status"), ours.getString("status"));
      assertEquals(real.getString("version"), ours.getString("version"));
      assertEquals(real.getJsonObject("commonLabels"), ours.getJsonObject("commonLabels"));
      assertEquals(
          fromBulwark.requests().get(0).header("Content-Type").orElse(""), "application/json");
    }
  }

  @Test
  void aGroupOfResolvedAndFiringFindingsIsOneMessage() throws Exception {
    try (WebhookCapture hook = WebhookCapture.start()) {
      ChannelConfig config =
          config("ops", Map.of("url", hook.url("/h").toString(), "allowPlaintext", "true"));
      try (ChannelSender sender = new WebhookChannel().open(config)) {
        assertEquals(64, sender.maxBatch());
        Finding a = finding();
        Finding b = finding("f-2", "dgx-a08").resolve(SINCE.plusSeconds(30));
        sender.send(List.of(notification(Event.OPENED, a), notification(Event.RESOLVED, b)));
      }
      JsonObject body = new JsonObject(hook.awaitRequests(1, Duration.ofSeconds(5)).get(0).body());
      assertEquals("firing", body.getString("status"));
      JsonArray alerts = body.getJsonArray("alerts");
      assertEquals(2, alerts.size());
      assertEquals("resolved", alerts.getJsonObject(1).getString("status"));
      assertEquals(SINCE.plusSeconds(30).toString(), alerts.getJsonObject(1).getString("endsAt"));
      assertEquals("xid", body.getJsonObject("commonLabels").getString("alertname"));
      assertFalse(body.getJsonObject("commonLabels").containsKey("node"));
    }
  }

  @Test
  void thePlainJsonFormatCarriesTheWholeFindingAndTheBearerToken() throws Exception {
    try (WebhookCapture hook = WebhookCapture.start()) {
      ChannelConfig config =
          new ChannelConfig(
              "siem",
              Map.of("url", hook.url("/in").toString(), "allowPlaintext", "true", "format", "json"),
              "s3cret-token".getBytes(StandardCharsets.UTF_8),
              "bulwark-1",
              "");
      try (ChannelSender sender = new WebhookChannel().open(config)) {
        sender.send(List.of(notification(Event.OPENED, finding())));
      }
      WebhookCapture.Captured got = hook.awaitRequests(1, Duration.ofSeconds(5)).get(0);
      assertEquals("Bearer s3cret-token", got.header("Authorization").orElse(""));
      JsonObject n = new JsonObject(got.body()).getJsonArray("notifications").getJsonObject(0);
      assertEquals("opened", n.getString("event"));
      assertEquals("a07", n.getJsonObject("labels").getString("rack"));
      JsonObject f = n.getJsonObject("finding");
      assertEquals("79", f.getJsonObject("evidence").getString("xid"));
      assertEquals("Drain dgx-a07 and reset GPU 3", f.getString("recommendedAction"));
      assertFalse(n.containsKey("notice"), "only a notice carries one");
    }
  }

  @Test
  void aRemediationNoticeCarriesItsTextInBothFormats() throws Exception {
    Notification notice =
        new Notification(
            "run-7:notify:facilities",
            Event.NOTICE,
            finding(),
            Map.of("rack", "a07"),
            Instant.now(),
            "dgx-a07 is drained because of thermal-throttle");
    try (WebhookCapture hook = WebhookCapture.start()) {
      for (String format : List.of("alertmanager", "json")) {
        ChannelConfig config =
            config(
                "facilities",
                Map.of(
                    "url",
                    hook.url("/" + format).toString(),
                    "allowPlaintext",
                    "true",
                    "format",
                    format));
        try (ChannelSender sender = new WebhookChannel().open(config)) {
          sender.send(List.of(notice));
        }
      }
      List<WebhookCapture.Captured> got = hook.awaitRequests(2, Duration.ofSeconds(5));
      JsonObject alert = new JsonObject(got.get(0).body()).getJsonArray("alerts").getJsonObject(0);
      assertEquals("firing", alert.getString("status"));
      assertEquals(
          "dgx-a07 is drained because of thermal-throttle",
          alert.getJsonObject("annotations").getString("notice"));
      JsonObject n =
          new JsonObject(got.get(1).body()).getJsonArray("notifications").getJsonObject(0);
      assertEquals("notice", n.getString("event"));
      assertEquals("dgx-a07 is drained because of thermal-throttle", n.getString("notice"));
      assertEquals(
          "NOTICE xid on dgx-a07 GPU 3: dgx-a07 is drained because of thermal-throttle",
          n.getString("subject"));
    }
  }

  @Test
  void aReceiverThatFailsIsRetriedAndOneThatRejectsTheMessageIsNot() throws Exception {
    try (WebhookCapture hook = WebhookCapture.start()) {
      ChannelConfig config =
          config("ops", Map.of("url", hook.url("/h").toString(), "allowPlaintext", "true"));
      try (ChannelSender sender = new WebhookChannel().open(config)) {
        List<Notification> one = List.of(notification(Event.OPENED, finding()));
        hook.respondWith(503, "maintenance");
        DeliveryException busy = assertThrows(DeliveryException.class, () -> sender.send(one));
        assertTrue(busy.retryable());
        assertTrue(busy.getMessage().contains("HTTP 503: maintenance"), busy.getMessage());
        hook.respondWith(401);
        DeliveryException auth = assertThrows(DeliveryException.class, () -> sender.send(one));
        assertTrue(auth.retryable());
        assertTrue(auth.getMessage().contains("bearer token"), auth.getMessage());
        hook.respondWith(400, "bad payload");
        assertFalse(assertThrows(DeliveryException.class, () -> sender.send(one)).retryable());
      }
    }
    ChannelConfig gone =
        config("ops", Map.of("url", "http://127.0.0.1:1/h", "allowPlaintext", "true"));
    try (ChannelSender sender = new WebhookChannel().open(gone)) {
      DeliveryException e =
          assertThrows(
              DeliveryException.class,
              () -> sender.send(List.of(notification(Event.OPENED, finding()))));
      assertTrue(e.retryable());
      assertTrue(e.getMessage().contains("http://127.0.0.1:1/h"), e.getMessage());
    }
  }

  @Test
  void plainHttpNeedsTheAdministratorsConsentAndHttpsNeedsACa() {
    IllegalArgumentException http =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                new WebhookChannel().open(config("ops", Map.of("url", "http://hooks.example/x"))));
    assertTrue(http.getMessage().contains("allowPlaintext"), http.getMessage());
    IllegalArgumentException https =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                new AlertmanagerChannel()
                    .open(config("am", Map.of("url", "https://am.example:9093"))));
    assertTrue(https.getMessage().contains("caCertificate"), https.getMessage());
    IllegalArgumentException format =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                new WebhookChannel()
                    .open(
                        config(
                            "ops",
                            Map.of(
                                "url", "http://h/x", "allowPlaintext", "true", "format", "xml"))));
    assertTrue(format.getMessage().contains("format"), format.getMessage());
  }

  /**
   * Asserts that {@code ours} has exactly the fields of {@code real}, each of the same JSON type.
   */
  static void assertSameShape(JsonObject real, JsonObject ours, String path) {
    assertEquals(
        new TreeSet<>(real.fieldNames()), new TreeSet<>(ours.fieldNames()), "fields of " + path);
    for (String f : real.fieldNames()) {
      Object r = real.getValue(f);
      Object o = ours.getValue(f);
      assertEquals(type(r), type(o), path + "." + f);
      if (r instanceof JsonObject ro && Set.of("alerts").contains(path.isEmpty() ? "" : path)) {
        assertSameShape(ro, (JsonObject) o, path + "." + f);
      }
      if (r instanceof JsonArray ra && f.equals("alerts")) {
        assertSameShape(ra.getJsonObject(0), ((JsonArray) o).getJsonObject(0), "alerts[0]");
      }
    }
  }

  private static String type(Object v) {
    if (v == null) {
      return "null";
    }
    if (v instanceof Number) {
      return "number";
    }
    return v.getClass().getSimpleName();
  }

  /**
   * When the test findings opened: whole seconds, ten minutes ago (Alertmanager wants the past).
   */
  static final Instant SINCE =
      Instant.now()
          .minus(Duration.ofMinutes(10))
          .truncatedTo(java.time.temporal.ChronoUnit.SECONDS);

  static ChannelConfig config(String name, Map<String, String> settings) {
    return new ChannelConfig(name, settings, null, "bulwark-1", "https://bulwark.example:8443");
  }

  static Finding finding() {
    return finding("f-1", "dgx-a07");
  }

  static Finding finding(String id, String node) {
    return new Finding(
        id,
        "xid",
        new NodeId(node),
        3,
        Severity.CRITICAL,
        FindingState.OPEN,
        SINCE,
        SINCE,
        null,
        "XID 79 (GPU fallen off the bus)",
        Map.of("xid", "79"),
        "Drain " + node + " and reset GPU 3",
        0.0,
        4,
        "GPU-5fa1c2d4-0000-4000-8000-000000000003");
  }

  static Notification notification(Event event, Finding f) {
    return new Notification(f.id() + ":" + event, event, f, Map.of("rack", "a07"), Instant.now());
  }
}
