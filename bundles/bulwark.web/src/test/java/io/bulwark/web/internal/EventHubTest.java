package io.bulwark.web.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.bulwark.api.fleet.NodeId;
import io.bulwark.api.health.Finding;
import io.bulwark.api.health.FindingKind;
import io.bulwark.api.health.FindingState;
import io.bulwark.api.health.Severity;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The server-sent event stream: finding events, capacity events, heartbeats, disconnects and slow
 * clients.
 */
class EventHubTest {
  private static final Duration WAIT = Duration.ofSeconds(5);

  private final FleetFixture fixture = new FleetFixture();
  private Vertx vertx;
  private WebServer server;
  private ApiClient client;

  @BeforeEach
  void start() {
    vertx = Vertx.vertx();
    server =
        fixture.start(
            vertx,
            Listener.plainHttp(new WebOptions("127.0.0.1", 0)),
            Duration.ofMillis(200),
            Duration.ofMillis(300));
    client = new ApiClient(server.port());
  }

  @AfterEach
  void stop() {
    server.stop();
    vertx.close().toCompletionStage().toCompletableFuture().join();
  }

  @Test
  void aFindingReachesTheBrowserAsAFindingEvent() throws Exception {
    try (EventReader events = new EventReader(client, true)) {
      assertThat(events.response().headers().firstValue("Content-Type"))
          .contains("text/event-stream; charset=utf-8");
      assertThat(events.next("capacity", WAIT)).isNotNull();
      Finding changed =
          FleetFixture.finding(
              "f-new",
              FindingKind.ECC_DBE,
              NodeId.of("gpu-a02"),
              1,
              Severity.CRITICAL,
              Instant.now(),
              Instant.now(),
              null,
              "2 uncorrectable ECC errors",
              "Replace GPU 1.");

      fixture.findings.findingChanged(changed);

      EventReader.Event event = events.next("finding", WAIT);
      assertThat(event).isNotNull();
      JsonObject finding = new JsonObject(event.data());
      assertThat(finding.getString("id")).isEqualTo("f-new");
      assertThat(finding.getString("kind")).isEqualTo("ecc-dbe");
      assertThat(finding.getString("node")).isEqualTo("gpu-a02");
      assertThat(finding.getString("severity")).isEqualTo("critical");
      assertThat(finding.getString("summary")).isEqualTo("2 uncorrectable ECC errors");
    }
  }

  @Test
  void capacityEventsRepeatAndHeartbeatsKeepTheStreamOpen() throws Exception {
    try (EventReader events = new EventReader(client, true)) {
      EventReader.Event first = events.next("capacity", WAIT);
      assertThat(new JsonObject(first.data()).getString("summary"))
          .isEqualTo("4 of 6 GPUs serving at 90% = 60% effective");
      assertThat(events.next("capacity", WAIT)).as("a periodic capacity event").isNotNull();
      assertThat(events.next(":", WAIT))
          .as("a heartbeat comment")
          .isNotNull()
          .extracting(EventReader.Event::data)
          .isEqualTo("heartbeat");
    }
  }

  @Test
  void aClosedStreamIsForgotten() throws Exception {
    EventReader events = new EventReader(client, true);
    assertThat(events.next("capacity", WAIT)).isNotNull();
    assertThat(server.eventClients()).isEqualTo(1);

    events.close();

    assertThat(eventually(() -> server.eventClients() == 0))
        .as("client removed after disconnect")
        .isTrue();
  }

  @Test
  void aClientThatStopsReadingIsDroppedWhileOthersKeepUp() throws Exception {
    try (EventReader reader = new EventReader(client, false);
        Socket stalled = new Socket()) {
      stalled.setReceiveBufferSize(4096);
      stalled.connect(new InetSocketAddress("127.0.0.1", server.port()), 5_000);
      OutputStream out = stalled.getOutputStream();
      out.write(
          ("GET /api/v1/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer admin-token\r\n"
                  + "Accept: text/event-stream\r\n\r\n")
              .getBytes(StandardCharsets.US_ASCII));
      out.flush();
      assertThat(eventually(() -> server.eventClients() == 2)).isTrue();

      Finding big = bigFinding();
      int sent = 0;
      while (server.eventClients() == 2 && sent < 5_000) {
        for (int i = 0; i < 5; i++) {
          fixture.findings.findingChanged(big);
        }
        sent += 5;
        Thread.sleep(10);
      }

      assertThat(server.eventClients())
          .as("the stalled client is dropped after " + sent + " events")
          .isEqualTo(1);
      int total = sent;
      assertThat(eventually(() -> reader.findingCount() == total))
          .as("the reading client got every event")
          .isTrue();
      assertThat(client.get("/api/v1/health").statusCode()).isEqualTo(200);
    }
  }

  private static Finding bigFinding() {
    String observed = "x".repeat(4_000);
    return new Finding(
        "f-big",
        FindingKind.STRAGGLER,
        NodeId.of("gpu-a01"),
        0,
        Severity.WARNING,
        FindingState.OPEN,
        Instant.now(),
        Instant.now(),
        null,
        "slow",
        Map.of("observed", observed),
        "",
        0.5,
        1);
  }

  private static boolean eventually(BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (System.nanoTime() < deadline) {
      if (condition.getAsBoolean()) {
        return true;
      }
      Thread.sleep(20);
    }
    return condition.getAsBoolean();
  }
}
