package io.bulwark.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.RandomAccessFile;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.MessageDigest;
import java.security.PublicKey;
import java.security.Signature;
import java.security.spec.X509EncodedKeySpec;
import java.time.Duration;
import java.util.Base64;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import javax.xml.XMLConstants;
import javax.xml.transform.stream.StreamSource;
import javax.xml.validation.SchemaFactory;
import javax.xml.validation.Validator;
import org.junit.jupiter.api.Test;
import org.w3c.dom.bootstrap.DOMImplementationRegistry;
import org.w3c.dom.ls.DOMImplementationLS;
import org.w3c.dom.ls.LSInput;

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
      assertThat(report.getJsonArray("stigs").getJsonObject(0).getInteger("rules")).isEqualTo(286);
      assertThat(report.getJsonArray("stigs").getJsonObject(1).getString("id")).isEqualTo(OS_STIG);
      assertThat(report.getJsonArray("rules"))
          .hasSize(286 + report.getJsonArray("stigs").getJsonObject(1).getInteger("rules"));
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

      probesOfTheAdminPlaneAndTheAuditRecords(report);
      String assessor = eventClassesAreFoundOnceEachHappened(bulwark);
      exportsParseInStigManagerWithTheApisStatuses(bulwark, assessor, work);
    }
  }

  /** The checks that probe the listener and read the audit records met their rules. */
  private static void probesOfTheAdminPlaneAndTheAuditRecords(JsonObject report) {
    for (String id : rulesOf(report, "tls-suites")) {
      JsonObject r = rule(report, id);
      assertThat(r.getString("status")).as(id + " " + r).isEqualTo("NotAFinding");
      assertThat(r.getString("findingDetails"))
          .contains("TLSv1.3: TLSv1.3 TLS_AES_", "TLSv1.2: TLSv1.2 TLS_ECDHE_")
          .containsPattern("TLSv1.1: (refused|client cannot offer)")
          .containsPattern("TLSv1.2 with CBC suites only: (refused|client cannot offer)");
    }
    for (String id : rulesOf(report, "admin-routes-authenticated")) {
      JsonObject r = rule(report, id);
      assertThat(r.getString("status")).as(id + " " + r).isEqualTo("NotAFinding");
      assertThat(r.getString("findingDetails"))
          .containsPattern("probedWithoutCredentials: [0-9]{2,}")
          .contains("GET /api/v1/banner", "POST /api/v1/session");
    }
    for (String id : rulesOf(report, "audit-record-fields")) {
      JsonObject r = rule(report, id);
      assertThat(r.getString("status")).as(id + " " + r).isEqualTo("NotAFinding");
      assertThat(r.getString("findingDetails")).contains("latestRecord: #", "outcome=");
    }
    assertThat(rulesOf(report, "audit-event-classes")).hasSize(16);
    Map<String, String> met =
        Map.of(
            "connection-limits", "maxConnectionsPerAddress: 64",
            "audit-access-control", "GET /api/v1/audit/export: [admin, auditor]",
            "audit-at-startup", "settingsRecorded: #",
            "audit-search", "recordsFound: ",
            "update-signature-required", "unsignedPackage: refused: ",
            "default-password-changed", "stillInitial: none");
    met.forEach(
        (check, evidence) -> {
          for (String id : rulesOf(report, check)) {
            JsonObject r = rule(report, id);
            assertThat(r.getString("status")).as(id + " " + r).isEqualTo("NotAFinding");
            assertThat(r.getString("findingDetails")).as(id).contains(evidence);
          }
        });
    // The OS map's live rule: chrony or systemd asked, whichever this machine has.
    JsonObject time = rule(report, "UBTU-22-252010");
    assertThat(time.getString("check")).isEqualTo("time-source");
    assertThat(time.getString("status")).isIn("NotAFinding", "Open");
    assertThat(time.getString("findingDetails")).contains("Check time-source ran at", "daemon");
    // What the demo lacks, said as an assessor needs it: no TPM, its own certificate, no alert
    // channel.
    Map<String, String> open =
        Map.of(
            "secrets-sealed", "the secret store runs in development mode",
            "certificate-validity", "serves the self-signed certificate the appliance made",
            "audit-storage-threshold", "no enabled alert channel",
            "audit-failure-alert", "no enabled alert channel",
            "low-resource-alert", "no enabled alert channel");
    open.forEach(
        (check, summary) -> {
          assertThat(rulesOf(report, check)).as(check).isNotEmpty();
          for (String id : rulesOf(report, check)) {
            JsonObject r = rule(report, id);
            assertThat(r.getString("status")).as(id + " " + r).isEqualTo("Open");
            assertThat(r.getString("findingDetails")).as(id).contains(summary);
          }
        });
  }

  /**
   * The event classes the STIG asks to be audited: Not Reviewed while the demo has made no account
   * yet, naming what to do; met once an account was created, logged in (wrongly, then rightly), had
   * its initial password changed, was unlocked, and another was deleted, and the audit log was
   * exported. Returns the session of that account, an auditor, as cookie and CSRF token headers.
   */
  private static String eventClassesAreFoundOnceEachHappened(RunningAppliance bulwark)
      throws Exception {
    JsonObject before = rule(run(bulwark), "APSC-DV-000340");
    assertThat(before.getString("status")).isEqualTo("Not_Reviewed");
    assertThat(before.getString("findingDetails")).contains("account creation (create a user)");

    String initial = "Winter-Initial-Pass-71";
    String changed = "Summer-Changed-Pass-82";
    for (String user : List.of("assessor", "leaver")) {
      HttpResponse<String> created =
          bulwark.send(
              "POST",
              bulwark.baseUrl() + "/api/v1/users",
              new JsonObject()
                  .put("name", user)
                  .put("role", "auditor")
                  .put("password", initial)
                  .encode());
      assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    }
    HttpResponse<String> wrong =
        bulwark.request(
            "POST",
            "/api/v1/session",
            new JsonObject()
                .put("user", "assessor")
                .put("password", "Not-The-Password-1")
                .encode());
    assertThat(wrong.statusCode()).as(wrong.body()).isEqualTo(401);
    HttpResponse<String> unlocked =
        bulwark.send("POST", bulwark.baseUrl() + "/api/v1/users/assessor/unlock", "{}");
    assertThat(unlocked.statusCode()).as(unlocked.body()).isBetween(200, 204);
    HttpResponse<String> login =
        bulwark.request(
            "POST",
            "/api/v1/session",
            new JsonObject().put("user", "assessor").put("password", initial).encode());
    assertThat(login.statusCode()).as(login.body()).isEqualTo(201);
    String cookie = login.headers().firstValue("set-cookie").orElseThrow();
    cookie = cookie.substring(0, cookie.indexOf(';'));
    String csrf = new JsonObject(login.body()).getString("csrfToken");
    HttpResponse<String> password =
        bulwark.request(
            "POST",
            "/api/v1/session/password",
            new JsonObject().put("current", initial).put("next", changed).encode(),
            "Cookie",
            cookie,
            "X-CSRF-Token",
            csrf);
    assertThat(password.statusCode()).as(password.body()).isEqualTo(204);
    HttpResponse<String> deleted =
        bulwark.send("DELETE", bulwark.baseUrl() + "/api/v1/users/leaver", null);
    assertThat(deleted.statusCode()).as(deleted.body()).isBetween(200, 204);
    assertThat(bulwark.get("/api/v1/audit/export").statusCode()).isEqualTo(200);

    JsonObject after = rule(run(bulwark), "APSC-DV-000340");
    assertThat(after.getString("status")).as(after.toString()).isEqualTo("NotAFinding");
    assertThat(after.getString("findingDetails"))
        .contains("account creation: #", "user.create by admin", "unsuccessful logon: #");
    return cookie + "\n" + csrf;
  }

  /**
   * An auditor downloads the CKL, the CKLB and the XCCDF results of both STIGs: each is signed with
   * the audit export key, audited with its SHA-384, names this machine, and parses in STIG
   * Manager's client modules (the parser STIG Manager imports with) to exactly the statuses the API
   * reports, rule by rule; the XCCDF also validates against NIST's XCCDF 1.2 schema. An operator
   * may not export.
   */
  private static void exportsParseInStigManagerWithTheApisStatuses(
      RunningAppliance bulwark, String assessor, Path work) throws Exception {
    String cookie = assessor.substring(0, assessor.indexOf('\n'));
    String csrf = assessor.substring(assessor.indexOf('\n') + 1);
    JsonObject report = new JsonObject(bulwark.get("/api/v1/compliance").body());
    Map<String, String> expected = new HashMap<>();
    report
        .getJsonArray("rules")
        .forEach(
            o ->
                expected.put(
                    ((JsonObject) o).getString("ruleId"),
                    RESULTS.get(((JsonObject) o).getString("status"))));
    PublicKey key = publicKey(bulwark.get("/api/v1/audit/public-key").body());
    // The checklist names the machine as its /etc/hostname does.
    String host = Files.readString(Path.of("/etc/hostname")).strip().split("\\.")[0];

    for (String[] export :
        new String[][] {
          {"ckl", ""}, {"cklb", ""}, {"xccdf", ""}, {"xccdf", "&benchmark=" + OS_STIG}
        }) {
      String format = export[0];
      HttpResponse<String> r =
          bulwark.request(
              "GET",
              "/api/v1/compliance/export?format=" + format + export[1],
              null,
              "Cookie",
              cookie,
              "X-CSRF-Token",
              csrf);
      assertThat(r.statusCode()).as(format + " " + r.body()).isEqualTo(200);
      byte[] body = r.body().getBytes(StandardCharsets.UTF_8);
      Signature verifier = Signature.getInstance("SHA384withECDSA");
      verifier.initVerify(key);
      verifier.update(body);
      assertThat(
              verifier.verify(
                  Base64.getDecoder()
                      .decode(r.headers().firstValue("X-Bulwark-Signature").orElseThrow())))
          .as(format + " signature")
          .isTrue();
      assertThat(r.headers().firstValue("Link").orElseThrow()).contains("/api/v1/audit/export");
      String disposition = r.headers().firstValue("Content-Disposition").orElseThrow();
      String name = disposition.replaceAll(".*filename=\"([^\"]+)\".*", "$1");
      Path file = work.resolve(name);
      Files.write(file, body);

      JsonObject parsed = stigManagerParse(format, file);
      assertThat(parsed.getJsonObject("target").getString("name")).isEqualTo(host);
      JsonArray checklists = parsed.getJsonArray("checklists");
      assertThat(checklists).hasSize(format.equals("xccdf") ? 1 : 2);
      int compared = 0;
      for (Object c : checklists) {
        JsonObject results = ((JsonObject) c).getJsonObject("results");
        for (String ruleId : results.fieldNames()) {
          assertThat(results.getString(ruleId))
              .as(format + " " + ruleId)
              .isEqualTo(expected.get(ruleId));
          compared++;
        }
      }
      int rules =
          format.equals("xccdf")
              ? report
                  .getJsonArray("stigs")
                  .getJsonObject(export[1].isEmpty() ? 0 : 1)
                  .getInteger("rules")
              : expected.size();
      assertThat(compared).as(format + " rules parsed").isEqualTo(rules);
      if (format.equals("xccdf")) {
        validateXccdf(file);
      }
      String sha384 = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-384").digest(body));
      assertThat(bulwark.get("/api/v1/audit?action=compliance.export&limit=50").body())
          .as("the export of " + name + " is audited")
          .contains(sha384, "\"actor\":\"assessor\"");
    }
    // The fixed evidence of one automated rule travels into the checklist an assessor opens.
    String fips = rule(report, "APSC-DV-001860").getString("ruleId");
    assertThat(expected.get(fips)).isEqualTo("pass");

    HttpResponse<String> token =
        bulwark.send(
            "POST",
            bulwark.baseUrl() + "/api/v1/tokens",
            new JsonObject().put("name", "night-shift").put("role", "operator").encode());
    assertThat(token.statusCode()).as(token.body()).isEqualTo(201);
    HttpResponse<String> refused =
        bulwark.request(
            "GET",
            "/api/v1/compliance/export?format=ckl",
            null,
            "Authorization",
            "Bearer " + new JsonObject(token.body()).getString("token"));
    assertThat(refused.statusCode()).isEqualTo(403);
  }

  /** STIG Viewer's statuses as STIG Manager's parser reports them. */
  private static final Map<String, String> RESULTS =
      Map.of(
          "NotAFinding", "pass",
          "Open", "fail",
          "Not_Applicable", "notapplicable",
          "Not_Reviewed", "notchecked");

  private static final String OS_STIG = "CAN_Ubuntu_22-04_LTS_STIG";

  /** The validator the project's install script sets up: STIG Manager's client modules. */
  private static final Path VALIDATOR = Path.of("../../stig/validate");

  static JsonObject stigManagerParse(String format, Path file) throws Exception {
    assertThat(VALIDATOR.resolve("node_modules/@nuwcdivnpt/stig-manager-client-modules"))
        .as(
            "STIG Manager's client modules (installed by .ci/install-deps: npm ci in stig/validate)")
        .isDirectory();
    Process p =
        new ProcessBuilder("node", "parse.mjs", format, file.toAbsolutePath().toString())
            .directory(VALIDATOR.toFile())
            .redirectError(ProcessBuilder.Redirect.PIPE)
            .start();
    byte[] out = p.getInputStream().readAllBytes();
    String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as("STIG Manager's parser on " + file + ": " + err).isZero();
    JsonObject parsed = new JsonObject(new String(out, StandardCharsets.UTF_8));
    assertThat(parsed.getJsonArray("errors")).as(file.toString()).isEmpty();
    return parsed;
  }

  /** NIST's XCCDF 1.2 schema, as Debian's openscap-common installs it. */
  private static final Path XCCDF_SCHEMA =
      Path.of("/usr/share/openscap/schemas/xccdf/1.2/xccdf_1.2.xsd");

  private static void validateXccdf(Path file) throws Exception {
    assertThat(XCCDF_SCHEMA).as("openscap-common (installed by .ci/install-deps)").exists();
    SchemaFactory f = SchemaFactory.newInstance(XMLConstants.W3C_XML_SCHEMA_NS_URI);
    f.setProperty(XMLConstants.ACCESS_EXTERNAL_SCHEMA, "file");
    // The schema of the xml: namespace it imports names a DTD that is not shipped beside it: read
    // it without its DOCTYPE, as xmllint does.
    f.setResourceResolver(
        (type, namespace, publicId, systemId, base) -> {
          if (!XMLConstants.XML_NS_URI.equals(namespace)) {
            return null;
          }
          try {
            String xsd = Files.readString(Path.of(java.net.URI.create(base).resolve(systemId)));
            LSInput in =
                ((DOMImplementationLS)
                        DOMImplementationRegistry.newInstance().getDOMImplementation("LS"))
                    .createLSInput();
            in.setStringData(xsd.replaceFirst("<!DOCTYPE[^>]*>", ""));
            in.setSystemId(systemId);
            return in;
          } catch (java.io.IOException | ReflectiveOperationException e) {
            throw new IllegalStateException("cannot read the schema " + systemId, e);
          }
        });
    Validator v = f.newSchema(XCCDF_SCHEMA.toFile()).newValidator();
    v.validate(new StreamSource(file.toFile()));
  }

  private static PublicKey publicKey(String pem) throws Exception {
    String base64 = pem.replaceAll("-----[A-Z ]+-----", "").replaceAll("\\s", "");
    return KeyFactory.getInstance("EC")
        .generatePublic(new X509EncodedKeySpec(Base64.getDecoder().decode(base64)));
  }

  /** Every check runs in turn, each bounded to 20 s by the engine. */
  private static final Duration RUN_TIMEOUT = Duration.ofSeconds(90);

  private static JsonObject run(RunningAppliance bulwark) throws Exception {
    HttpResponse<String> r = bulwark.send("POST", "/api/v1/compliance/run", "{}", RUN_TIMEOUT);
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
