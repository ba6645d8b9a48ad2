package io.bulwark.web.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.bulwark.api.audit.AuditOutcome;
import io.bulwark.api.audit.AuditRecord;
import io.bulwark.api.fleet.Node;
import io.bulwark.api.fleet.NodeId;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Nodes a broken exporter invented can be removed by an administrator, one by one or every node
 * silent for a while, from the inventory and from telemetry; a node a target still reports is
 * refused, since it would come back; every removal and refusal is audited.
 */
class NodeRemovalTest {
  private final FleetFixture fixture = new FleetFixture();
  private Vertx vertx;
  private WebServer server;
  private ApiClient admin;

  @BeforeEach
  void start() {
    Instant hourAgo = Instant.ofEpochMilli(fixture.now - 3_600_000);
    for (int i = 0; i < 3; i++) {
      NodeId junk = NodeId.of("invented-" + i);
      fixture.fleet.put(new Node(junk, FleetFixture.gpus(1), hourAgo, hourAgo));
      fixture.telemetry.scrapedAt(junk, hourAgo.toEpochMilli());
    }
    vertx = Vertx.vertx();
    server = fixture.start(vertx, Listener.plainHttp(new WebOptions("127.0.0.1", 0)));
    admin = new ApiClient(server.port());
  }

  @AfterEach
  void stop() {
    server.stop();
    vertx.close().toCompletionStage().toCompletableFuture().join();
  }

  @Test
  void anAdministratorRemovesAnInventedNodeFromTheInventoryAndTelemetry() {
    HttpResponse<String> removed = admin.send("DELETE", "/api/v1/nodes/invented-0");

    assertThat(removed.statusCode()).isEqualTo(204);
    assertThat(fixture.fleet.node(NodeId.of("invented-0"))).isEmpty();
    assertThat(fixture.telemetry.lastScrapeMillis(NodeId.of("invented-0"))).isEmpty();
    AuditRecord record = last("node.remove");
    assertThat(record.event().target()).isEqualTo("invented-0");
    assertThat(record.event().outcome()).isEqualTo(AuditOutcome.SUCCESS);
    assertThat(record.event().actor()).isEqualTo("tok-admin");
    assertThat(admin.send("DELETE", "/api/v1/nodes/invented-0").statusCode()).isEqualTo(404);
  }

  @Test
  void aNodeATargetStillReportsIsRefusedNamingTheTarget() {
    HttpResponse<String> refused = admin.send("DELETE", "/api/v1/nodes/gpu-a01");

    assertThat(refused.statusCode()).isEqualTo(409);
    assertThat(new JsonObject(refused.body()).getString("detail"))
        .contains("still receives samples of gpu-a01 from http://10.0.0.11:9400/metrics");
    assertThat(fixture.fleet.node(FleetFixture.A01)).isPresent();
    assertThat(last("node.remove").event().outcome()).isEqualTo(AuditOutcome.FAILURE);
  }

  @Test
  void everyNodeSilentForLongerThanAskedIsListedOnADryRunAndRemovedOtherwise() {
    JsonObject dryRun = new JsonObject(post("{\"silentForMinutes\":30,\"dryRun\":true}").body());
    assertThat(dryRun.getInteger("count")).isEqualTo(3);
    assertThat(dryRun.getJsonArray("nodes").getList())
        .containsExactly("invented-0", "invented-1", "invented-2");
    assertThat(fixture.fleet.nodes()).hasSize(5);

    HttpResponse<String> done = post("{\"silentForMinutes\":30}");
    assertThat(done.statusCode()).isEqualTo(200);
    assertThat(fixture.fleet.nodes())
        .extracting(n -> n.id().value())
        .containsExactly("gpu-a01", "gpu-a02");
    assertThat(last("node.remove").event().details())
        .containsEntry("nodes", "invented-0,invented-1,invented-2");

    assertThat(post("{\"silentForMinutes\":0}").statusCode()).isEqualTo(400);
    assertThat(post("{\"silentForMinutes\":30,\"dryRun\":\"yes\"}").statusCode()).isEqualTo(400);
  }

  @Test
  void onlyAnAdministratorMayRemoveNodes() {
    ApiClient operator = new ApiClient(server.port(), "operator-token");
    assertThat(operator.send("DELETE", "/api/v1/nodes/invented-1").statusCode()).isEqualTo(403);
    assertThat(fixture.fleet.node(NodeId.of("invented-1"))).isPresent();
  }

  private HttpResponse<String> post(String json) {
    return admin.send(
        admin
            .request("/api/v1/nodes/remove-silent")
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(json))
            .build());
  }

  private AuditRecord last(String action) {
    List<AuditRecord> records = fixture.audit.records;
    for (int i = records.size() - 1; i >= 0; i--) {
      if (records.get(i).event().action().equals(action)) {
        return records.get(i);
      }
    }
    throw new AssertionError("no " + action + " record in " + records);
  }
}
