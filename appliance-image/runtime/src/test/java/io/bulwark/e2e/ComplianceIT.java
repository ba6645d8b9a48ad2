package io.bulwark.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import java.io.RandomAccessFile;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The compliance report of a running demo appliance: the live checks prove their rules with
 * evidence read from it (the FIPS module, the session limits, the audit chain), the rules met by
 * design, not applicable or for a person carry their status and text; an audit record altered on
 * disk turns exactly the audit-chain rules Open, naming the record, and putting it back turns them
 * met again. Every run is audited.
 */
class ComplianceIT {

  @Test
  void liveChecksProveTheirRulesAndATamperedAuditLogTurnsItsRulesOpenAndBack() throws Exception {
    Path work = RunningAppliance.workDir("compliance");
    try (RunningAppliance bulwark = RunningAppliance.demo(work, Map.of("BULWARK_SIM_NODES", "8"))) {
      bulwark.awaitUp(Duration.ofSeconds(90));
      JsonObject report = run(bulwark);
      assertThat(report.getJsonObject("stig").getInteger("version")).isEqualTo(6);
      assertThat(report.getJsonArray("rules")).hasSize(286);
      assertThat(report.getJsonArray("checks").encode())
          .contains("fips-approved-only", "session-idle-timeout", "audit-chain-intact");

      JsonObject fips = rule(report, "APSC-DV-001860");
      assertThat(fips.getString("check")).isEqualTo("fips-approved-only");
      assertThat(fips.getString("status")).isEqualTo("NotAFinding");
      assertThat(fips.getString("findingDetails"))
          .contains("approvedOnly: true", "selfTestsPassed: true", "providers: BCFIPS, BCJSSE");
      JsonObject idle = rule(report, "APSC-DV-000070");
      assertThat(idle.getString("status")).isEqualTo("NotAFinding");
      assertThat(idle.getString("findingDetails"))
          .contains("sessionIdleSeconds: 900", "adminSessionIdleSeconds: 600");
      assertThat(rule(report, "APSC-DV-000080").getString("status")).isEqualTo("NotAFinding");
      assertThat(rule(report, "APSC-DV-000530").getString("findingDetails"))
          .contains("lockoutAttempts: 3", "lockoutWindowSeconds: 900");
      assertThat(rule(report, "APSC-DV-001680").getString("findingDetails"))
          .contains("refuses a password with 14 characters: true");
      for (String id : List.of("APSC-DV-000530", "APSC-DV-001680", "APSC-DV-001720")) {
        assertThat(rule(report, id).getString("status")).as(id).isEqualTo("NotAFinding");
      }
      List<String> chainRules = rulesOf(report, "audit-chain-intact");
      assertThat(chainRules).isNotEmpty();
      for (String id : chainRules) {
        assertThat(rule(report, id).getString("status")).as(id).isEqualTo("NotAFinding");
      }
      // The demo's banner is the generic default, not the DoD notice: Open, saying what to set.
      JsonObject banner = rule(report, "APSC-DV-000550");
      assertThat(banner.getString("status")).isEqualTo("Open");
      assertThat(banner.getString("findingDetails"))
          .contains("not the Standard Mandatory DoD Notice", "setting: io.bulwark.web banner");
      assertThat(report.getJsonObject("openByCategory").getInteger(banner.getString("category")))
          .isPositive();
      // Rules without a live check keep their disposition's status and say why.
      JsonObject soap = rule(report, "APSC-DV-000200");
      assertThat(soap.getString("status")).isEqualTo("Not_Applicable");
      assertThat(soap.getString("findingDetails")).startsWith("Not applicable: ");
      JsonObject sessions = rule(report, "APSC-DV-000010");
      assertThat(sessions.getString("status")).isEqualTo("Not_Reviewed");
      assertThat(sessions.getString("comments")).startsWith("For the assessor: ");

      // An audit record altered on disk, in place: the chain rules turn Open, naming it.
      Path log = bulwark.dataDir.resolve("audit").resolve("audit.jsonl");
      List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
      assertThat(lines.get(1)).contains("\"actor\":\"");
      long offset = lines.get(0).getBytes(StandardCharsets.UTF_8).length + 1L;
      int at = lines.get(1).indexOf("\"actor\":\"") + "\"actor\":\"".length();
      offset += lines.get(1).substring(0, at).getBytes(StandardCharsets.UTF_8).length;
      byte[] original = new byte[1];
      try (RandomAccessFile f = new RandomAccessFile(log.toFile(), "rw")) {
        f.seek(offset);
        f.readFully(original);
        f.seek(offset);
        f.write(original[0] == 'x' ? 'y' : 'x');
      }
      report = run(bulwark);
      for (String id : chainRules) {
        JsonObject r = rule(report, id);
        assertThat(r.getString("status")).as(id).isEqualTo("Open");
        assertThat(r.getString("findingDetails")).contains("firstBadSequence: 2");
      }
      assertThat(rule(report, "APSC-DV-001860").getString("status")).isEqualTo("NotAFinding");

      try (RandomAccessFile f = new RandomAccessFile(log.toFile(), "rw")) {
        f.seek(offset);
        f.write(original);
      }
      report = run(bulwark);
      for (String id : chainRules) {
        assertThat(rule(report, id).getString("status")).as(id).isEqualTo("NotAFinding");
      }
      assertThat(bulwark.get("/api/v1/audit?action=compliance.run&limit=10").body())
          .contains("compliance.run", "audit-chain-intact");
    }
  }

  private static JsonObject run(RunningAppliance bulwark) throws Exception {
    HttpResponse<String> r =
        bulwark.send("POST", bulwark.baseUrl() + "/api/v1/compliance/run", "{}");
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    return new JsonObject(r.body());
  }

  private static JsonObject rule(JsonObject report, String stigId) {
    return report.getJsonArray("rules").stream()
        .map(o -> (JsonObject) o)
        .filter(o -> o.getString("stigId").equals(stigId))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no rule " + stigId));
  }

  private static List<String> rulesOf(JsonObject report, String check) {
    return report.getJsonArray("rules").stream()
        .map(o -> (JsonObject) o)
        .filter(o -> check.equals(o.getString("check")))
        .map(o -> o.getString("stigId"))
        .toList();
  }
}
