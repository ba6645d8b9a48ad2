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
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The machines API on the running appliance: an admin adds a machine with its BMC, operators move
 * it through its life cycle, a refused operation answers 409 naming the state, an auditor reads but
 * may not act, every request (the refused ones too) is in the audit log, the BMC password is in no
 * file of the data folder, and after {@code kill -9} the machine, its history and a commissioning
 * cut short come back (the last failed explicitly, never left hanging).
 */
class MachinesApiIT {

  @Test
  void machinesMoveThroughTheirLifeCycleAuditedAndSurviveAKill() throws Exception {
    Path work = RunningAppliance.workDir("machines-api");
    Map<String, String> env = Map.of("BULWARK_SIM_NODES", "4");
    String password = "BMC-pw-7f3a9c";
    try (RunningAppliance bulwark = RunningAppliance.demo(work, env)) {
      bulwark.awaitUp(Duration.ofSeconds(90));
      HttpResponse<String> added =
          bulwark.send(
              "POST",
              bulwark.baseUrl() + "/api/v1/machines",
              new JsonObject()
                  .put("hostname", "DGX-A07")
                  .put("macs", new JsonArray().add("02:42:AC:11:00:07"))
                  .put("rack", "r07")
                  .put("tags", new JsonArray().add("h100"))
                  .put(
                      "bmc",
                      new JsonObject()
                          .put("address", "10.2.0.17")
                          .put("username", "root")
                          .put("password", password))
                  .encode());
      assertThat(added.statusCode()).as(added.body()).isEqualTo(201);
      JsonObject m = new JsonObject(added.body());
      assertThat(m.getString("id")).isEqualTo("dgx-a07");
      assertThat(m.getString("state")).isEqualTo("new");
      assertThat(m.getString("stateLabel")).isEqualTo("New");
      assertThat(m.getJsonObject("bmc").getInteger("port")).isEqualTo(443);
      assertThat(added.body()).doesNotContain(password);

      // An id that is taken, a body that is not usable.
      assertThat(
              bulwark
                  .send(
                      "POST",
                      bulwark.baseUrl() + "/api/v1/machines",
                      new JsonObject().put("hostname", "dgx-a07").encode())
                  .statusCode())
          .isEqualTo(409);
      HttpResponse<String> badMac =
          bulwark.send(
              "POST",
              bulwark.baseUrl() + "/api/v1/machines",
              new JsonObject()
                  .put("hostname", "x1")
                  .put("macs", new JsonArray().add("not-a-mac"))
                  .encode());
      assertThat(badMac.statusCode()).isEqualTo(400);
      assertThat(badMac.body()).contains("not-a-mac").contains("MAC address");

      // The event stream carries every change of a machine, for the pages to follow live.
      var events = bulwark.stream("/api/v1/events").get(10, java.util.concurrent.TimeUnit.SECONDS);
      assertThat(events.statusCode()).isEqualTo(200);
      java.util.concurrent.CompletableFuture<String> machineEvent =
          java.util.concurrent.CompletableFuture.supplyAsync(
              () -> {
                java.util.Iterator<String> lines = events.body().iterator();
                boolean machineTopic = false;
                while (lines.hasNext()) {
                  String line = lines.next();
                  if (line.equals("event: machine")) {
                    machineTopic = true;
                  } else if (machineTopic
                      && line.startsWith("data:")
                      && line.contains("commissioning")) {
                    return line;
                  } else if (line.isEmpty()) {
                    machineTopic = false;
                  }
                }
                return null;
              });
      assertThat(operate(bulwark, "dgx-a07", "commission", "racked on 2 Dec").getString("state"))
          .isEqualTo("commissioning");
      assertThat(machineEvent.get(10, java.util.concurrent.TimeUnit.SECONDS))
          .contains("\"id\":\"dgx-a07\"");
      events.body().close();
      // Deploying a machine that is commissioning: 409, the state named, nothing changed.
      HttpResponse<String> refused =
          bulwark.send("POST", bulwark.baseUrl() + "/api/v1/machines/dgx-a07/deploy", "{}");
      assertThat(refused.statusCode()).isEqualTo(409);
      assertThat(refused.body()).contains("Commissioning").contains("dgx-a07");
      // Commissioning set the next boot at the BMC in the background: a BMC operation is refused
      // while another is under way, so wait for that one to end first.
      for (int i = 0; i < 60; i++) {
        if (new JsonObject(bulwark.get("/api/v1/machines/dgx-a07").body()).getString("pending")
            == null) {
          break;
        }
        Thread.sleep(250);
      }
      // A power cycle is accepted and carried out in the background; this BMC is not reachable
      // from here, and its certificate is not pinned: the machine says which, in words.
      HttpResponse<String> power =
          bulwark.send("POST", bulwark.baseUrl() + "/api/v1/machines/dgx-a07/power-cycle", "{}");
      assertThat(power.statusCode()).as(power.body()).isEqualTo(202);
      assertThat(new JsonObject(power.body()).getString("pending")).isEqualTo("power-cycle");
      JsonObject afterPower = null;
      for (int i = 0; i < 60; i++) {
        afterPower = new JsonObject(bulwark.get("/api/v1/machines/dgx-a07").body());
        if (afterPower.getString("pending") == null) {
          break;
        }
        Thread.sleep(500);
      }
      assertThat(afterPower.getString("pending")).as("the BMC operation ended").isNull();
      assertThat(afterPower.getJsonObject("bmc").getString("error")).contains("10.2.0.17");
      assertThat(
              bulwark
                  .send("POST", bulwark.baseUrl() + "/api/v1/machines/dgx-a07/explode", "{}")
                  .statusCode())
          .isEqualTo(404);

      // A site inventory as CSV: checked first (a bad row: nothing added), a dry run, then added;
      // running it again adds nothing.
      String csv =
          "hostname,macs,rack,bmc_address,bmc_username,bmc_password\n"
              + "dgx-b01,02:00:00:00:00:b1,r08,10.2.1.1,root,\"p,w1\"\n"
              + "dgx-b02,,r08,,,\n";
      HttpResponse<String> bad =
          bulwark.send(
              "POST",
              bulwark.baseUrl() + "/api/v1/machines/import",
              new JsonObject().put("csv", csv + "dgx-b03,nope,r08,,,\n").encode());
      assertThat(bad.statusCode()).isEqualTo(400);
      assertThat(bad.body())
          .contains("row 3")
          .contains("'nope' is not a MAC address")
          .contains("nothing was added");
      assertThat(bulwark.get("/api/v1/machines/dgx-b01").statusCode()).isEqualTo(404);
      JsonObject dry =
          new JsonObject(
              bulwark
                  .send(
                      "POST",
                      bulwark.baseUrl() + "/api/v1/machines/import",
                      new JsonObject().put("csv", csv).put("dryRun", true).encode())
                  .body());
      assertThat(dry.getInteger("wouldAdd")).isEqualTo(2);
      assertThat(bulwark.get("/api/v1/machines/dgx-b01").statusCode()).isEqualTo(404);
      HttpResponse<String> imported =
          bulwark.send(
              "POST",
              bulwark.baseUrl() + "/api/v1/machines/import",
              new JsonObject().put("csv", csv).encode());
      assertThat(imported.statusCode()).as(imported.body()).isEqualTo(201);
      assertThat(new JsonObject(imported.body()).getInteger("added")).isEqualTo(2);
      assertThat(imported.body()).doesNotContain("p,w1");
      JsonObject again =
          new JsonObject(
              bulwark
                  .send(
                      "POST",
                      bulwark.baseUrl() + "/api/v1/machines/import",
                      new JsonObject().put("csv", csv).encode())
                  .body());
      assertThat(again.getInteger("added")).isZero();
      assertThat(again.getInteger("existing")).isEqualTo(2);
      assertThat(
              new JsonObject(bulwark.get("/api/v1/machines/dgx-b01").body())
                  .getJsonObject("bmc")
                  .getString("address"))
          .isEqualTo("10.2.1.1");

      // Roles: an auditor reads machines but may not act on them.
      HttpClient http = PinnedCertificate.client(work.resolve("console.log"));
      String auditor = token(bulwark, "assessor", "auditor");
      assertThat(call(http, bulwark, auditor, "GET", "/api/v1/machines", null).statusCode())
          .isEqualTo(200);
      assertThat(
              call(http, bulwark, auditor, "POST", "/api/v1/machines/dgx-a07/abort", "{}")
                  .statusCode())
          .isEqualTo(403);
      String operator = token(bulwark, "night-shift", "operator");
      HttpResponse<String> aborted =
          call(http, bulwark, operator, "POST", "/api/v1/machines/dgx-a07/abort", "{}");
      assertThat(aborted.statusCode()).as(aborted.body()).isEqualTo(200);
      assertThat(new JsonObject(aborted.body()).getString("state")).isEqualTo("new");
      assertThat(
              call(http, bulwark, operator, "DELETE", "/api/v1/machines/dgx-a07", null)
                  .statusCode())
          .as("deleting is the admin's")
          .isEqualTo(403);

      operate(bulwark, "dgx-a07", "commission", "second try");
      JsonObject detail = new JsonObject(bulwark.get("/api/v1/machines/dgx-a07").body());
      assertThat(detail.getJsonArray("allowed").getList())
          .contains("abort", "probe", "power-cycle")
          .doesNotContain("deploy", "delete", "lock");
      assertThat(detail.getString("stateDeadline")).isNotNull();
      JsonArray listed =
          new JsonObject(bulwark.get("/api/v1/machines?state=commissioning&rack=r07").body())
              .getJsonArray("machines");
      assertThat(listed).hasSize(1);
      assertThat(
              new JsonObject(bulwark.get("/api/v1/machines?state=ready").body())
                  .getInteger("count"))
          .isZero();
      assertThat(bulwark.get("/api/v1/machines?state=sleeping").statusCode()).isEqualTo(400);

      JsonArray records =
          new JsonObject(bulwark.get("/api/v1/audit?limit=1000").body()).getJsonArray("records");
      String audit = records.encode();
      assertThat(audit)
          .contains("machine.add")
          .contains("machine.commission")
          .contains("machine.abort");
      assertThat(records.stream().map(r -> (JsonObject) r))
          .as("the refused deploy is audited as a failure naming the state")
          .anySatisfy(
              r -> {
                assertThat(r.getString("action")).isEqualTo("machine.deploy");
                assertThat(r.getString("outcome")).isEqualToIgnoringCase("failure");
                assertThat(r.encode()).contains("Commissioning");
              });
      assertThat(audit).doesNotContain(password);

      // kill -9 in the middle of commissioning.
      bulwark.process.destroyForcibly().waitFor(10, java.util.concurrent.TimeUnit.SECONDS);
    }
    try (Stream<Path> files = Files.walk(work.resolve("data"))) {
      for (Path f : files.filter(Files::isRegularFile).toList()) {
        assertThat(new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1))
            .as("%s holds no BMC password in the clear", f)
            .doesNotContain(password);
      }
    }
    try (RunningAppliance bulwark = RunningAppliance.demo(work, env)) {
      bulwark.awaitUp(Duration.ofSeconds(90));
      JsonObject m = new JsonObject(bulwark.get("/api/v1/machines/dgx-a07").body());
      assertThat(m.getString("state")).isEqualTo("failed-commissioning");
      assertThat(m.getString("stateReason")).contains("the appliance restarted");
      JsonArray history =
          new JsonObject(bulwark.get("/api/v1/machines/dgx-a07/history").body())
              .getJsonArray("history");
      // While it commissions, provisioning sets its next boot through its BMC (unreachable here),
      // depending on when its sweep runs; the test's own operations are the rest.
      assertThat(
              history.stream()
                  .map(e -> (JsonObject) e)
                  .filter(e -> e.getString("operation").equals("set-boot"))
                  .map(e -> e.getString("by")))
          .allSatisfy(by -> assertThat(by).isEqualTo("provisioning"));
      List<JsonObject> own =
          history.stream()
              .map(e -> (JsonObject) e)
              .filter(e -> !e.getString("operation").startsWith("set-boot"))
              .toList();
      List<String> operations = own.stream().map(e -> e.getString("operation")).toList();
      assertThat(operations)
          .containsExactly(
              "add",
              "commission",
              "power-cycle",
              "power-cycle failed",
              "abort",
              "commission",
              "restart");
      JsonObject abort = own.get(4);
      assertThat(abort.getString("from")).isEqualTo("commissioning");
      assertThat(abort.getString("to")).isEqualTo("new");
      assertThat(abort.getString("by")).isNotEqualTo("admin").isNotBlank();
      assertThat(own.get(1).getString("reason")).isEqualTo("racked on 2 Dec");

      HttpResponse<String> deleted =
          bulwark.send("DELETE", bulwark.baseUrl() + "/api/v1/machines/dgx-a07", null);
      assertThat(deleted.statusCode()).isEqualTo(204);
      assertThat(bulwark.get("/api/v1/machines/dgx-a07").statusCode()).isEqualTo(404);
    }
  }

  private static JsonObject operate(
      RunningAppliance bulwark, String machine, String operation, String reason) throws Exception {
    HttpResponse<String> r =
        bulwark.send(
            "POST",
            bulwark.baseUrl() + "/api/v1/machines/" + machine + "/" + operation,
            new JsonObject().put("reason", reason).encode());
    assertThat(r.statusCode()).as(operation + ": " + r.body()).isEqualTo(200);
    return new JsonObject(r.body());
  }

  private static String token(RunningAppliance bulwark, String name, String role) throws Exception {
    return Runs.issueToken(bulwark, name, role).getString("token");
  }

  private static HttpResponse<String> call(
      HttpClient http,
      RunningAppliance bulwark,
      String token,
      String method,
      String path,
      String body)
      throws Exception {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create(bulwark.baseUrl() + path))
            .timeout(Duration.ofSeconds(10))
            .header("Authorization", "Bearer " + token);
    if (body != null) {
      b.header("Content-Type", "application/json")
          .method(method, HttpRequest.BodyPublishers.ofString(body));
    } else {
      b.method(method, HttpRequest.BodyPublishers.noBody());
    }
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }
}
