package io.bulwark.testing.alerting;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bulwark.testing.alerting.WebhookCapture.Captured;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AlertmanagerProcessTest {
  private static final Duration WAIT = Duration.ofSeconds(20);
  private static final String GENERATOR = "http://bulwark.local/nodes/gpu-node-001";

  private final HttpClient http =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .proxy(HttpClient.Builder.NO_PROXY)
          .build();
  private final WebhookCapture capture = WebhookCapture.start();

  @TempDir Path dir;

  @AfterEach
  void closeCapture() {
    capture.close();
  }

  @Test
  void sendsAFiringAndThenAResolvedWebhookForAnAlertPostedByHand() throws Exception {
    Instant startsAt = Instant.now().truncatedTo(ChronoUnit.SECONDS).minusSeconds(5);
    try (AlertmanagerProcess am = AlertmanagerProcess.start(dir, capture.url("/alertmanager"))) {
      HttpResponse<String> posted = post(am, "[" + xid("3", "critical", startsAt, null) + "]");
      assertThat(posted.statusCode()).as(posted.body()).isEqualTo(200);

      Captured firingCall = capture.awaitRequests(1, WAIT).get(0);
      assertThat(firingCall.method()).isEqualTo("POST");
      assertThat(firingCall.path()).isEqualTo("/alertmanager");
      assertThat(firingCall.header("content-type")).hasValue("application/json");
      assertThat(firingCall.header("User-Agent"))
          .hasValueSatisfying(ua -> assertThat(ua).startsWith("Alertmanager/"));
      Map<String, Object> firing = Json.object(firingCall.body());
      Map<String, Object> labels =
          Map.of(
              "alertname",
              "GpuXidError",
              "node",
              "gpu-node-001",
              "gpu",
              "3",
              "severity",
              "critical");
      assertThat(firing)
          .containsEntry("version", "4")
          .containsEntry("status", "firing")
          .containsEntry("receiver", AlertmanagerProcess.RECEIVER)
          .containsEntry(
              "groupKey",
              "{}:{alertname=\"GpuXidError\", gpu=\"3\", node=\"gpu-node-001\","
                  + " severity=\"critical\"}")
          .containsEntry("groupLabels", labels)
          .containsEntry("commonLabels", labels)
          .containsEntry("commonAnnotations", Map.of("summary", "XID 79 on GPU 3"))
          .containsEntry("externalURL", am.uri().toString().replaceAll("/$", ""));
      assertThat(firing.get("truncatedAlerts").toString()).isEqualTo("0");
      List<Object> alerts = Json.array(firing, "alerts");
      assertThat(alerts).hasSize(1);
      @SuppressWarnings("unchecked")
      Map<String, Object> alert = (Map<String, Object>) alerts.get(0);
      assertThat(alert)
          .containsEntry("status", "firing")
          .containsEntry("labels", labels)
          .containsEntry("annotations", Map.of("summary", "XID 79 on GPU 3"))
          .containsEntry("startsAt", startsAt.toString())
          .containsEntry("endsAt", "0001-01-01T00:00:00Z")
          .containsEntry("generatorURL", GENERATOR);
      String fingerprint = (String) alert.get("fingerprint");
      assertThat(fingerprint).matches("[0-9a-f]{16}");
      assertSameShape(firing, Json.object(AlertmanagerWebhookSamples.firing()));
      assertThat(am.alertsJson()).contains(fingerprint).contains("\"state\":\"active\"");

      Instant endsAt = Instant.now().truncatedTo(ChronoUnit.SECONDS).minusSeconds(1);
      posted = post(am, "[" + xid("3", "critical", startsAt, endsAt) + "]");
      assertThat(posted.statusCode()).as(posted.body()).isEqualTo(200);

      List<Captured> calls = capture.awaitRequests(2, WAIT);
      assertThat(calls).hasSize(2);
      Map<String, Object> resolved = Json.object(calls.get(1).body());
      assertThat(resolved)
          .containsEntry("version", "4")
          .containsEntry("status", "resolved")
          .containsEntry("groupKey", firing.get("groupKey"));
      @SuppressWarnings("unchecked")
      Map<String, Object> resolvedAlert =
          (Map<String, Object>) Json.array(resolved, "alerts").get(0);
      assertThat(resolvedAlert)
          .containsEntry("status", "resolved")
          .containsEntry("fingerprint", fingerprint)
          .containsEntry("startsAt", startsAt.toString())
          .containsEntry("endsAt", endsAt.toString());
      assertSameShape(resolved, Json.object(AlertmanagerWebhookSamples.resolved()));
    }
  }

  @Test
  void batchesTheAlertsOfAGroupWhenGroupingByAlertnameAndNode() throws Exception {
    // Alertmanager flushes a new group at once when its alert started longer than group_wait ago,
    // so an alert that started 5 s back went out alone before the second of the post was taken.
    Instant startsAt = Instant.now().truncatedTo(ChronoUnit.SECONDS);
    try (AlertmanagerProcess am =
        AlertmanagerProcess.start(
            dir, capture.url("/am"), List.of("alertname", "node"), Duration.ofSeconds(3))) {
      // A group waits 3 s for its alerts: Alertmanager takes the two of one post one by one, and on
      // a loaded machine a wait of 1 s was seen to close the group after the first.
      assertThat(Files.readString(am.configFile()))
          .contains("group_by: ['alertname', 'node']")
          .contains("group_wait: 3s");
      HttpResponse<String> posted =
          post(
              am,
              "["
                  + xid("3", "critical", startsAt, null)
                  + ","
                  + xid("5", "warning", startsAt, null)
                  + "]");
      assertThat(posted.statusCode()).as(posted.body()).isEqualTo(200);

      Map<String, Object> call = Json.object(capture.awaitRequests(1, WAIT).get(0).body());
      assertThat(call)
          .containsEntry("groupKey", "{}:{alertname=\"GpuXidError\", node=\"gpu-node-001\"}")
          .containsEntry("groupLabels", Map.of("alertname", "GpuXidError", "node", "gpu-node-001"))
          .containsEntry(
              "commonLabels", Map.of("alertname", "GpuXidError", "node", "gpu-node-001"));
      assertThat(Json.array(call, "alerts")).hasSize(2);
      assertSameShape(call, Json.object(AlertmanagerWebhookSamples.grouped()));
    }
  }

  @Test
  void fillsInWhatAnAlertWithOnlyLabelsLeftOut() throws Exception {
    try (AlertmanagerProcess am = AlertmanagerProcess.start(dir, capture.url("/am"))) {
      assertThat(post(am, "[{\"labels\":{\"alertname\":\"Bare\"}}]").statusCode()).isEqualTo(200);

      Map<String, Object> call = Json.object(capture.awaitRequests(1, WAIT).get(0).body());
      @SuppressWarnings("unchecked")
      Map<String, Object> alert = (Map<String, Object>) Json.array(call, "alerts").get(0);
      assertThat(alert)
          .containsEntry("annotations", Map.of())
          .containsEntry("generatorURL", "")
          .containsEntry("endsAt", "0001-01-01T00:00:00Z");
      assertThat(Instant.parse((String) alert.get("startsAt")))
          .isBetween(Instant.now().minusSeconds(60), Instant.now());
      assertThat(call).containsEntry("commonAnnotations", Map.of());
      assertSameShape(call, Json.object(AlertmanagerWebhookSamples.firing()));
    }
  }

  @Test
  void retriesAWebhookThatAnswers500() throws Exception {
    capture.respondWith(500);
    try (AlertmanagerProcess am = AlertmanagerProcess.start(dir, capture.url("/am"))) {
      post(am, "[" + xid("3", "critical", Instant.now(), null) + "]");

      List<Captured> calls = capture.awaitRequests(2, WAIT);
      assertThat(calls.get(1).body()).isEqualTo(calls.get(0).body());
    }
  }

  @Test
  void rejectsMalformedAlertsWithoutCallingTheWebhook() throws Exception {
    try (AlertmanagerProcess am = AlertmanagerProcess.start(dir, capture.url("/am"))) {
      HttpResponse<String> notJson = post(am, "{not json");
      assertThat(notJson.statusCode()).isEqualTo(400);
      assertThat(notJson.body()).contains("\"code\":400").contains("parsing alerts body");

      HttpResponse<String> notAnArray = post(am, "{\"labels\":{\"alertname\":\"X\"}}");
      assertThat(notAnArray.statusCode()).isEqualTo(400);
      assertThat(notAnArray.body()).contains("cannot unmarshal object");

      HttpResponse<String> emptyLabels = post(am, "[{\"labels\":{}}]");
      assertThat(emptyLabels.statusCode()).isEqualTo(400);
      assertThat(emptyLabels.body()).isEqualTo("\"at least one label pair required\"\n");

      HttpResponse<String> noLabels = post(am, "[{\"annotations\":{\"summary\":\"x\"}}]");
      assertThat(noLabels.statusCode()).isEqualTo(422);
      assertThat(noLabels.body()).contains("\"code\":602").contains("labels in body is required");

      HttpResponse<String> empty = post(am, "[]");
      assertThat(empty.statusCode()).isEqualTo(200);

      assertThat(am.alertsJson().trim()).isEqualTo("[]");
      Thread.sleep(1_500); // longer than group_interval: a webhook would have gone out by now
      assertThat(capture.requests()).isEmpty();
    }
  }

  @Test
  void writesTheConfigurationAndCommandItDocuments() throws Exception {
    try (AlertmanagerProcess am = AlertmanagerProcess.start(dir, capture.url("/am"))) {
      String port = String.valueOf(am.uri().getPort());
      assertThat(am.uri().toString()).isEqualTo("http://127.0.0.1:" + port + "/");
      assertThat(am.command())
          .contains(
              "--config.file=" + dir.resolve("alertmanager.yml").toAbsolutePath(),
              "--storage.path=" + dir.resolve("data").toAbsolutePath(),
              "--web.listen-address=127.0.0.1:" + port,
              "--web.external-url=http://127.0.0.1:" + port + "/",
              "--cluster.listen-address=");
      assertThat(Files.readString(am.configFile()))
          .isEqualTo(
              AlertmanagerProcess.config(
                  capture.url("/am"), AlertmanagerProcess.GROUP_BY_ALL, Duration.ZERO))
          .contains("group_by: ['...']")
          .contains("group_wait: 0s")
          .contains("group_interval: 1s")
          .contains("repeat_interval: 1h")
          .contains("url: '" + capture.url("/am") + "'")
          .contains("send_resolved: true");
      assertThat(am.log()).contains("Listening on").contains("127.0.0.1:" + port);
    }
  }

  @Test
  void stopsTheProcessOnClose() throws Exception {
    URI uri;
    try (AlertmanagerProcess am = AlertmanagerProcess.start(dir, capture.url("/am"))) {
      uri = am.uri();
    }
    assertThatThrownBy(
            () ->
                http.send(
                    HttpRequest.newBuilder(uri.resolve("-/ready"))
                        .timeout(Duration.ofSeconds(2))
                        .build(),
                    HttpResponse.BodyHandlers.ofString()))
        .isInstanceOf(IOException.class);
  }

  @Test
  void failsWithAnInstallHintWhenTheBinaryIsMissing() {
    withBinary(
        dir.resolve("no-such-alertmanager").toString(),
        () ->
            assertThatThrownBy(() -> AlertmanagerProcess.start(dir, capture.url("/am")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("apt-get install prometheus-alertmanager"));
  }

  @Test
  void failsWithItsOutputWhenAlertmanagerExitsBeforeItIsReady() throws Exception {
    Path script = dir.resolve("broken-alertmanager");
    Files.writeString(script, "#!/bin/sh\necho 'error: cannot start' >&2\nexit 3\n");
    script.toFile().setExecutable(true);
    withBinary(
        script.toString(),
        () ->
            assertThatThrownBy(() -> AlertmanagerProcess.start(dir, capture.url("/am")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("exited with status 3 before it was ready")
                .hasMessageContaining("error: cannot start"));
  }

  @Test
  void rejectsGroupingItCannotExpress() {
    URI url = capture.url("/am");
    assertThatThrownBy(() -> AlertmanagerProcess.config(url, List.of(), Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("GROUP_BY_ALL");
    assertThatThrownBy(() -> AlertmanagerProcess.config(url, List.of("...", "node"), Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("mixes");
    assertThatThrownBy(() -> AlertmanagerProcess.config(url, List.of("no-de"), Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not a label name");
    assertThatThrownBy(
            () ->
                AlertmanagerProcess.config(
                    URI.create("/relative"), AlertmanagerProcess.GROUP_BY_ALL, Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("absolute http or https URL");
  }

  @Test
  void samplesAreTheWebhooksAlertmanagerSent() {
    Map<String, Object> firing = Json.object(AlertmanagerWebhookSamples.firing());
    Map<String, Object> resolved = Json.object(AlertmanagerWebhookSamples.resolved());
    Map<String, Object> grouped = Json.object(AlertmanagerWebhookSamples.grouped());
    assertThat(firing).containsEntry("status", "firing").containsEntry("version", "4");
    assertThat(resolved).containsEntry("status", "resolved").containsEntry("version", "4");
    assertThat(Json.array(grouped, "alerts")).hasSize(2);
    assertThat(Json.shape(firing))
        .containsExactlyInAnyOrderEntriesOf(
            Map.of(
                "receiver", "string",
                "status", "string",
                "alerts", "array",
                "groupLabels", "object",
                "commonLabels", "object",
                "commonAnnotations", "object",
                "externalURL", "string",
                "version", "string",
                "groupKey", "string",
                "truncatedAlerts", "number"));
    assertThat(Json.shape(Json.array(firing, "alerts").get(0)))
        .containsExactlyInAnyOrderEntriesOf(
            Map.of(
                "status", "string",
                "labels", "object",
                "annotations", "object",
                "startsAt", "string",
                "endsAt", "string",
                "generatorURL", "string",
                "fingerprint", "string"));
    assertSameShape(resolved, firing);
    assertSameShape(grouped, firing);
  }

  /** Same top-level members and alert members, with the same JSON types. */
  private static void assertSameShape(Map<String, Object> actual, Map<String, Object> sample) {
    assertThat(Json.shape(actual)).isEqualTo(Json.shape(sample));
    Map<String, String> sampleAlert = Json.shape(Json.array(sample, "alerts").get(0));
    for (Object alert : Json.array(actual, "alerts")) {
      assertThat(Json.shape(alert)).isEqualTo(sampleAlert);
    }
  }

  private HttpResponse<String> post(AlertmanagerProcess am, String body) throws Exception {
    return http.send(
        HttpRequest.newBuilder(am.uri().resolve("api/v2/alerts"))
            .timeout(Duration.ofSeconds(10))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /** An XID alert for GPU {@code gpu} of gpu-node-001, resolved when {@code endsAt} is given. */
  private static String xid(String gpu, String severity, Instant startsAt, Instant endsAt) {
    return "{\"labels\":{\"alertname\":\"GpuXidError\",\"node\":\"gpu-node-001\",\"gpu\":\""
        + gpu
        + "\",\"severity\":\""
        + severity
        + "\"},\"annotations\":{\"summary\":\"XID 79 on GPU "
        + gpu
        + "\"},\"startsAt\":\""
        + startsAt
        + "\","
        + (endsAt == null ? "" : "\"endsAt\":\"" + endsAt + "\",")
        + "\"generatorURL\":\""
        + GENERATOR
        + "\"}";
  }

  private static void withBinary(String binary, Runnable test) {
    String before = System.getProperty(AlertmanagerProcess.BINARY_PROPERTY);
    System.setProperty(AlertmanagerProcess.BINARY_PROPERTY, binary);
    try {
      test.run();
    } finally {
      if (before == null) {
        System.clearProperty(AlertmanagerProcess.BINARY_PROPERTY);
      } else {
        System.setProperty(AlertmanagerProcess.BINARY_PROPERTY, before);
      }
    }
  }
}
