package io.bulwark.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code bulwark} commands against a stand-in for the appliance: a local HTTPS server ({@link
 * StandIn}) with the appliance's routes answering canned JSON, over TLS through BCJSSE in FIPS
 * mode. The appliance itself needs the whole framework; the end-to-end suite runs it. Checks what
 * goes over the wire (the bearer token, query parameters, JSON bodies), what the operator reads,
 * the exit statuses, and both ways of trusting the appliance's certificate: a pinned fingerprint
 * and a CA with the host name checked.
 */
class CliTest {
  private static final String TOKEN = "bwk_test_0123456789abcdef";
  private static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");

  private static Certificates.Identity selfSigned;
  private static StandIn appliance;
  private static String fingerprint;

  @TempDir Path folder;
  private Path tokenFile;
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();
  private final Map<String, String> env = new HashMap<>();

  @BeforeAll
  static void startAppliance() throws Exception {
    // For a name the tests never connect to: a pinned certificate is trusted whatever the host.
    selfSigned = Certificates.selfSigned("bulwark-appliance.example");
    appliance = new StandIn(selfSigned);
    fingerprint = Trust.fingerprint(selfSigned.certificate());
  }

  @AfterAll
  static void stopAppliance() {
    appliance.close();
  }

  @BeforeEach
  void writeToken() throws Exception {
    tokenFile = Files.writeString(folder.resolve("token"), TOKEN + "\n");
  }

  private int run(String... args) {
    out.reset();
    err.reset();
    Cli cli =
        new Cli(
            env,
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8),
            Clock.fixed(NOW, ZoneOffset.UTC));
    return cli.run(args);
  }

  /** Runs a command against the stand-in, trusting its pinned certificate. */
  private int bulwark(String... args) {
    List<String> all =
        new ArrayList<>(
            List.of(
                "--url",
                appliance.url(),
                "--fingerprint",
                fingerprint,
                "--token-file",
                tokenFile.toString()));
    all.addAll(Arrays.asList(args));
    return run(all.toArray(new String[0]));
  }

  private String out() {
    return out.toString(StandardCharsets.UTF_8);
  }

  private String err() {
    return err.toString(StandardCharsets.UTF_8);
  }

  private Object lastBody() throws Exception {
    return Json.parse(appliance.last().body());
  }

  // ---- Reading ----

  @Test
  void healthSendsTheBearerTokenAndShowsEachSubsystem() {
    appliance.answer(
        "GET",
        "/api/v1/health",
        200,
        "{\"status\":\"DEGRADED\",\"uptimeSeconds\":273600,\"startedAt\":\"2026-02-26T12:00:00Z\","
            + "\"security\":{\"cryptoModule\":{\"name\":\"BouncyCastle FIPS\",\"version\":\"2.1.0\","
            + "\"approvedOnly\":true,\"selfTestsPassed\":true},\"secretsSealedToTpm\":true,"
            + "\"developmentMode\":false},\"subsystems\":["
            + "{\"subsystem\":\"store\",\"state\":\"UP\",\"summary\":\"12 MiB, last write 2 s ago\","
            + "\"action\":\"\",\"since\":\"2026-02-26T12:00:01.123Z\"},"
            + "{\"subsystem\":\"telemetry\",\"state\":\"DEGRADED\",\"summary\":\"2 of 40 targets"
            + " not answering\",\"action\":\"Check the exporters on node-7 and node-9.\","
            + "\"since\":\"2026-03-01T11:00:00Z\"}]}");

    assertThat(bulwark("health")).isZero();

    StandIn.Request request = appliance.last();
    assertThat(request.method()).isEqualTo("GET");
    assertThat(request.path()).isEqualTo("/api/v1/health");
    assertThat(request.header("Authorization")).isEqualTo("Bearer " + TOKEN);
    assertThat(out())
        .contains("Appliance: DEGRADED, up 3d 4h (since 2026-02-26T12:00:00Z)")
        .contains("Crypto: BouncyCastle FIPS 2.1.0, approved-only")
        .containsPattern("store\\s+UP\\s+2026-02-26T12:00:01Z\\s+12 MiB, last write 2 s ago")
        .containsPattern("telemetry\\s+DEGRADED\\s+2026-03-01T11:00:00Z\\s+2 of 40 targets")
        .contains("telemetry: Check the exporters on node-7 and node-9.");
  }

  @Test
  void jsonPrintsTheAnswerAsItIs() {
    String body = "{\"nodes\":[{\"id\":\"node-1\",\"gpusInstalled\":8}],\"count\":1}";
    appliance.answer("GET", "/api/v1/nodes", 200, body);

    assertThat(bulwark("nodes", "--json")).isZero();

    assertThat(out()).isEqualTo(body + System.lineSeparator());
  }

  @Test
  void urlAndTokenMayComeFromTheEnvironment() {
    appliance.answer("GET", "/api/v1/nodes", 200, "{\"nodes\":[],\"count\":0}");
    env.put("BULWARK_URL", appliance.url());
    env.put("BULWARK_TOKEN", "bwk_from_env");

    assertThat(run("nodes", "--fingerprint", fingerprint)).isZero();

    assertThat(appliance.last().header("Authorization")).isEqualTo("Bearer bwk_from_env");
    assertThat(out()).contains("0 nodes");
  }

  @Test
  void nodesAreATable() {
    appliance.answer(
        "GET",
        "/api/v1/nodes",
        200,
        "{\"nodes\":[{\"id\":\"node-1\",\"gpusInstalled\":8,\"gpusReporting\":8,\"openFindings\":0,"
            + "\"worstSeverity\":null,\"lastScrape\":\"2026-03-01T11:59:58.512Z\"},"
            + "{\"id\":\"node-2\",\"gpusInstalled\":8,\"gpusReporting\":7,\"openFindings\":2,"
            + "\"worstSeverity\":\"critical\",\"lastScrape\":null}],\"count\":2}");

    assertThat(bulwark("nodes")).isZero();

    assertThat(out())
        .containsPattern("NODE\\s+GPUS\\s+REPORTING\\s+OPEN\\s+WORST\\s+LAST SCRAPE")
        .containsPattern("node-1\\s+8\\s+8\\s+0\\s+-\\s+2026-03-01T11:59:58Z")
        .containsPattern("node-2\\s+8\\s+7\\s+2\\s+critical\\s+never")
        .contains("2 nodes");
  }

  @Test
  void capacityShowsTheHeadline() {
    appliance.answer(
        "GET",
        "/api/v1/capacity",
        200,
        "{\"summary\":\"496 of 512 GPUs serving at 98% = 95% effective; 16 GPUs unknown\","
            + "\"headline\":\"496 of 512 GPUs serving at 98% = 95% effective; 16 GPUs unknown"
            + " (2 targets not answering)\",\"gpusInstalled\":512,\"gpusServing\":496,"
            + "\"gpusHealthy\":490,\"gpusDegraded\":6,\"gpusFailed\":0,\"gpusUnknown\":16,"
            + "\"effectiveCapacity\":0.95,\"meanRelativePerformance\":0.98,"
            + "\"lastDay\":{\"gpuHoursLost\":{\"failed\":0.0,\"degraded\":12.5,\"unknown\":384.0,"
            + "\"total\":396.5}}}");

    assertThat(bulwark("capacity")).isZero();

    assertThat(out())
        .startsWith(
            "496 of 512 GPUs serving at 98% = 95% effective; 16 GPUs unknown (2 targets not"
                + " answering)")
        .containsPattern("Serving:\\s+496 \\(490 healthy, 6 degraded\\)")
        .containsPattern("Effective capacity:\\s+95.0%")
        .containsPattern("Lost, last 24 h:\\s+396.5 GPU-hours \\(degraded 12.5, unknown 384\\)");
  }

  @Test
  void findingsPassTheFiltersAsQueryParameters() {
    appliance.answer(
        "GET",
        "/api/v1/findings",
        200,
        "{\"findings\":[{\"id\":\"f-0042\",\"kind\":\"thermal-throttle\",\"node\":\"node-7\","
            + "\"gpu\":3,\"severity\":\"warning\",\"state\":\"open\","
            + "\"lastSeen\":\"2026-03-01T11:58:00Z\",\"summary\":\"GPU 3 throttles at 87 °C\"}],"
            + "\"count\":1,\"limit\":5}");

    assertThat(
            bulwark(
                "findings",
                "--state",
                "open",
                "--kind",
                "thermal-throttle",
                "--node=node-7",
                "--limit",
                "5"))
        .isZero();

    StandIn.Request request = appliance.last();
    assertThat(request.path()).isEqualTo("/api/v1/findings");
    assertThat(request.query()).isEqualTo("state=open&kind=thermal-throttle&node=node-7&limit=5");
    assertThat(out())
        .containsPattern(
            "f-0042\\s+warning\\s+open\\s+thermal-throttle\\s+node-7\\s+3\\s+"
                + "2026-03-01T11:58:00Z\\s+GPU 3 throttles at 87 °C")
        .contains("1 finding");
  }

  @Test
  void findingsWithoutFiltersSendNoQuery() {
    appliance.answer("GET", "/api/v1/findings", 200, "{\"findings\":[],\"count\":0,\"limit\":200}");

    assertThat(bulwark("findings")).isZero();

    assertThat(appliance.last().query()).isNull();
    assertThat(out()).contains("0 findings");
  }

  @Test
  void findingsRefuseAStateOrLimitTheApiWouldNot() {
    int before = appliance.requests().size();

    assertThat(bulwark("findings", "--state", "closed")).isEqualTo(2);
    assertThat(err()).contains("--state must be open, resolved or all, not 'closed'");
    assertThat(bulwark("findings", "--limit", "0")).isEqualTo(2);
    assertThat(err()).contains("--limit must be a whole number from 1 to 10000");

    assertThat(appliance.requests()).hasSize(before);
  }

  @Test
  void oneFindingShowsItsWorkflowTimelineCostAndRelatedFindings() {
    appliance.answer(
        "GET",
        "/api/v1/findings/f-0042",
        200,
        "{\"finding\":{\"id\":\"f-0042\",\"kind\":\"thermal-throttle\",\"node\":\"node-7\",\"gpu\":3,"
            + "\"gpuUuid\":\"GPU-1234\",\"severity\":\"warning\",\"state\":\"open\","
            + "\"firstSeen\":\"2026-03-01T09:00:00Z\",\"lastSeen\":\"2026-03-01T11:58:00Z\","
            + "\"resolvedAt\":null,\"summary\":\"GPU 3 throttles at 87 °C\","
            + "\"evidence\":{\"temperature\":\"87\"},\"recommendedAction\":\"Check the fans.\","
            + "\"performanceFactor\":0.8,\"occurrences\":14},"
            + "\"workflow\":{\"acknowledgedBy\":\"alice\",\"acknowledgedAt\":\"2026-03-01T10:00:00Z\","
            + "\"assignee\":\"bob\",\"snoozedUntil\":null,\"snoozedBy\":null,"
            + "\"comments\":[{\"by\":\"alice\",\"at\":\"2026-03-01T10:01:00Z\",\"text\":\"fan 2"
            + " stopped\"}]},"
            + "\"timeline\":[{\"at\":\"2026-03-01T09:00:00Z\",\"event\":\"opened\",\"by\":\"bulwark\","
            + "\"text\":\"\"},{\"at\":\"2026-03-01T10:00:00Z\",\"event\":\"acknowledged\","
            + "\"by\":\"alice\",\"text\":\"\"}],"
            + "\"cost\":{\"gpuHours\":0.6,\"money\":1.5,\"currency\":\"EUR\"},"
            + "\"related\":[{\"id\":\"f-0040\",\"kind\":\"fan-failure\",\"node\":\"node-7\",\"gpu\":-1,"
            + "\"severity\":\"critical\",\"state\":\"open\",\"lastSeen\":\"2026-03-01T11:00:00Z\","
            + "\"summary\":\"fan 2 stopped\"}]}");

    assertThat(bulwark("finding", "f-0042")).isZero();

    assertThat(out())
        .containsPattern("Finding:\\s+f-0042")
        .containsPattern("GPU:\\s+3 \\(GPU-1234\\)")
        .containsPattern("Evidence:\\s+temperature=87")
        .containsPattern("Acknowledged:\\s+by alice at 2026-03-01T10:00:00Z")
        .containsPattern("Assigned to:\\s+bob")
        .containsPattern("Snoozed:\\s+no")
        .containsPattern("Cost:\\s+0.6 GPU-hours, 1.5 EUR")
        .containsPattern("2026-03-01T10:01:00Z\\s+alice\\s+fan 2 stopped")
        .containsPattern("2026-03-01T10:00:00Z\\s+acknowledged\\s+alice")
        .containsPattern("f-0040\\s+critical\\s+open\\s+fan-failure\\s+node-7\\s+-");
  }

  @Test
  void idsArePercentEncodedInThePath() {
    appliance.answer("GET", "/api/v1/findings/a%2Fb%20c", 200, "{\"finding\":{\"id\":\"a/b c\"}}");

    assertThat(bulwark("finding", "a/b c")).isZero();

    assertThat(appliance.last().path()).isEqualTo("/api/v1/findings/a%2Fb%20c");
  }

  @Test
  void textFromTheApplianceCannotDriveTheTerminal() {
    appliance.answer(
        "GET",
        "/api/v1/findings",
        200,
        "{\"findings\":[{\"id\":\"f-1\",\"summary\":\"a\\u001b]0;owned\\u0007b\\nc\"}],\"count\":1}");

    assertThat(bulwark("findings")).isZero();

    assertThat(out()).doesNotContain("\u001b").doesNotContain("\u0007").contains("a?]0;owned?b c");
  }

  // ---- The finding workflow ----

  @Test
  void ackPostsTheComment() throws Exception {
    appliance.answer("POST", "/api/v1/findings/f-0042/acknowledge", 200, "{}");

    assertThat(bulwark("ack", "f-0042", "--comment", "on it")).isZero();

    assertThat(appliance.last().method()).isEqualTo("POST");
    assertThat(appliance.last().header("Content-Type")).isEqualTo("application/json");
    assertThat(appliance.last().header("Authorization")).isEqualTo("Bearer " + TOKEN);
    assertThat(lastBody()).isEqualTo(Map.of("comment", "on it"));
    assertThat(out()).contains("Finding f-0042 acknowledged.");
  }

  @Test
  void ackWithoutACommentPostsAnEmptyObject() throws Exception {
    appliance.answer("POST", "/api/v1/findings/f-0042/acknowledge", 204, "");

    assertThat(bulwark("ack", "f-0042")).isZero();

    assertThat(lastBody()).isEqualTo(Map.of());
  }

  @Test
  void assignPostsTheAssigneeAndNoneUnassigns() throws Exception {
    appliance.answer("POST", "/api/v1/findings/f-0042/assign", 200, "{}");

    assertThat(bulwark("assign", "f-0042", "bob")).isZero();
    assertThat(lastBody()).isEqualTo(Map.of("assignee", "bob"));
    assertThat(out()).contains("Finding f-0042 assigned to bob.");

    assertThat(bulwark("assign", "f-0042", "--none")).isZero();
    assertThat(lastBody()).isEqualTo(Map.of("assignee", ""));
    assertThat(out()).contains("Finding f-0042 is assigned to nobody.");

    assertThat(bulwark("assign", "f-0042")).isEqualTo(2);
    assertThat(bulwark("assign", "f-0042", "bob", "--none")).isEqualTo(2);
  }

  @Test
  void commentJoinsTheWords() throws Exception {
    appliance.answer("POST", "/api/v1/findings/f-0042/comments", 201, "{}");

    assertThat(bulwark("comment", "f-0042", "fan", "replaced,", "rack", "4")).isZero();
    assertThat(lastBody()).isEqualTo(Map.of("text", "fan replaced, rack 4"));

    assertThat(bulwark("comment", "f-0042", "--", "-40 °C", "is", "wrong")).isZero();
    assertThat(lastBody()).isEqualTo(Map.of("text", "-40 °C is wrong"));

    assertThat(bulwark("comment", "f-0042")).isEqualTo(2);
    assertThat(err()).contains("'comment' needs a finding id and the comment's text");
  }

  @Test
  void snoozeSendsTheEndAsAnInstant() throws Exception {
    appliance.answer("POST", "/api/v1/findings/f-0042/snooze", 200, "{}");

    assertThat(bulwark("snooze", "f-0042", "2h", "--comment", "firmware update tonight")).isZero();
    assertThat(lastBody())
        .isEqualTo(Map.of("until", "2026-03-01T14:00:00Z", "comment", "firmware update tonight"));
    assertThat(out()).contains("Finding f-0042 snoozed until 2026-03-01T14:00:00Z.");

    assertThat(bulwark("snooze", "f-0042", "2026-03-05T08:00:00+01:00")).isZero();
    assertThat(lastBody()).isEqualTo(Map.of("until", "2026-03-05T07:00:00Z"));
  }

  @Test
  void snoozeEndSendsNull() throws Exception {
    appliance.answer("POST", "/api/v1/findings/f-0042/snooze", 200, "{}");

    assertThat(bulwark("snooze", "f-0042", "--end")).isZero();

    Map<String, Object> expected = new HashMap<>();
    expected.put("until", null);
    assertThat(lastBody()).isEqualTo(expected);
    assertThat(appliance.last().body()).isEqualTo("{\"until\":null}");
    assertThat(out()).contains("Finding f-0042 is no longer snoozed.");
  }

  @Test
  void snoozeRefusesAnEndThatIsNotATimeOrInThePast() {
    int before = appliance.requests().size();

    assertThat(bulwark("snooze", "f-0042", "soon")).isEqualTo(2);
    assertThat(err()).contains("UNTIL must be an ISO-8601 instant").contains("not 'soon'");
    assertThat(bulwark("snooze", "f-0042", "2026-02-01T00:00:00Z")).isEqualTo(2);
    assertThat(err()).contains("is not in the future");
    assertThat(bulwark("snooze", "f-0042", "2h", "--end")).isEqualTo(2);

    assertThat(appliance.requests()).hasSize(before);
  }

  // ---- Maintenance ----

  @Test
  void maintenanceAddPostsTheWindow() throws Exception {
    appliance.answer(
        "POST",
        "/api/v1/maintenance",
        201,
        "{\"id\":\"mw-7\",\"node\":\"node-7\",\"gpu\":3,\"from\":\"2026-03-01T12:00:00Z\","
            + "\"until\":\"2026-03-02T12:00:00Z\",\"reason\":\"RMA\",\"by\":\"alice\"}");

    assertThat(
            bulwark(
                "maintenance",
                "add",
                "node-7",
                "--gpu",
                "3",
                "--until",
                "1d",
                "--reason",
                "RMA of GPU 3"))
        .isZero();

    assertThat(appliance.last().path()).isEqualTo("/api/v1/maintenance");
    assertThat(lastBody())
        .isEqualTo(
            Map.of(
                "node",
                "node-7",
                "gpu",
                3L,
                "until",
                "2026-03-02T12:00:00Z",
                "reason",
                "RMA of GPU 3"));
    assertThat(out())
        .contains("Maintenance window mw-7 added: node node-7 GPU 3 until 2026-03-02T12:00:00Z.");
  }

  @Test
  void maintenanceAddOfAWholeNodeSendsNoGpu() throws Exception {
    appliance.answer("POST", "/api/v1/maintenance", 201, "{\"id\":\"mw-8\"}");

    assertThat(
            bulwark(
                "maintenance",
                "add",
                "node-9",
                "--until",
                "2026-03-01T18:30:00Z",
                "--reason",
                "BIOS"))
        .isZero();

    assertThat(lastBody())
        .isEqualTo(Map.of("node", "node-9", "until", "2026-03-01T18:30:00Z", "reason", "BIOS"));
  }

  @Test
  void maintenanceAddNeedsUntilAndReason() {
    int before = appliance.requests().size();

    assertThat(bulwark("maintenance", "add", "node-9", "--reason", "BIOS")).isEqualTo(2);
    assertThat(err()).contains("'maintenance add' needs --until");
    assertThat(bulwark("maintenance", "add", "node-9", "--until", "30m")).isEqualTo(2);
    assertThat(err()).contains("'maintenance add' needs --reason");
    assertThat(
            bulwark(
                "maintenance", "add", "node-9", "--until", "30m", "--reason", "x", "--gpu", "-1"))
        .isEqualTo(2);
    assertThat(bulwark("maintenance", "list", "--until", "30m")).isEqualTo(2);
    assertThat(bulwark("maintenance", "stop", "mw-1")).isEqualTo(2);

    assertThat(appliance.requests()).hasSize(before);
  }

  @Test
  void maintenanceListAndEnd() {
    appliance.answer(
        "GET",
        "/api/v1/maintenance",
        200,
        "{\"windows\":[{\"id\":\"mw-7\",\"node\":\"node-7\",\"gpu\":-1,"
            + "\"from\":\"2026-03-01T10:00:00Z\",\"until\":\"2026-03-02T10:00:00Z\","
            + "\"reason\":\"rack move\",\"by\":\"alice\",\"active\":true}]}");
    appliance.answer("DELETE", "/api/v1/maintenance/mw-7", 204, "");

    assertThat(bulwark("maintenance", "list")).isZero();
    assertThat(out())
        .containsPattern(
            "mw-7\\s+node-7\\s+all\\s+yes\\s+2026-03-01T10:00:00Z\\s+2026-03-02T10:00:00Z\\s+alice\\s+"
                + "rack move")
        .contains("1 maintenance window");

    assertThat(bulwark("maintenance", "end", "mw-7")).isZero();
    assertThat(appliance.last().method()).isEqualTo("DELETE");
    assertThat(appliance.last().path()).isEqualTo("/api/v1/maintenance/mw-7");
    assertThat(out()).contains("Maintenance window mw-7 ended.");
  }

  // ---- Export ----

  @Test
  void exportWritesTheFileWhole() throws Exception {
    String csv = "id,kind,node,gpu,severity,state\nf-0042,thermal-throttle,node-7,3,warning,open\n";
    appliance.answer("GET", "/api/v1/findings.csv", 200, "text/csv", csv);
    Path file = folder.resolve("findings.csv");

    assertThat(bulwark("export", "--state", "open", "--out", file.toString())).isZero();

    assertThat(appliance.last().query()).isEqualTo("state=open");
    assertThat(appliance.last().header("Accept")).startsWith("text/csv");
    assertThat(Files.readString(file)).isEqualTo(csv);
    assertThat(out())
        .contains("Exported the findings to " + file + " (" + csv.length() + " bytes)");
    try (var left = Files.list(folder)) {
      assertThat(left.map(p -> p.getFileName().toString())).doesNotContain(".findings.csv.part");
    }
  }

  @Test
  void exportAsJsonToStandardOutput() {
    String json = "{\"findings\":[{\"id\":\"f-0042\"}]}";
    appliance.answer("GET", "/api/v1/findings.json", 200, json);

    assertThat(bulwark("export", "--format", "json")).isZero();

    assertThat(appliance.last().path()).isEqualTo("/api/v1/findings.json");
    assertThat(out()).isEqualTo(json);
  }

  @Test
  void aRefusedExportLeavesNoFile() throws Exception {
    appliance.problem(
        "GET", "/api/v1/findings.csv", 503, "Store unavailable", "the store is being compacted");
    Path file = folder.resolve("out.csv");

    assertThat(bulwark("export", "--out", file.toString())).isEqualTo(1);

    assertThat(err()).contains("bulwark: 503 Store unavailable: the store is being compacted");
    try (var left = Files.list(folder)) {
      assertThat(left.map(p -> p.getFileName().toString())).containsExactly("token");
    }
    assertThat(bulwark("export", "--format", "xml")).isEqualTo(2);
  }

  @Test
  void anExportIntoAFolderThatIsNotThereIsAUsageError() {
    int before = appliance.requests().size();

    assertThat(bulwark("export", "--out", folder.resolve("absent/out.csv").toString()))
        .isEqualTo(2);

    assertThat(err()).contains("cannot write").contains("there is no folder");
    assertThat(appliance.requests()).hasSize(before);
  }

  // ---- Problems ----

  @Test
  void aProblemIsShownWithItsStatusTitleAndDetail() {
    appliance.problem(
        "GET",
        "/api/v1/findings",
        400,
        "Invalid parameter",
        "'kind' is not a finding kind: 'Bad' (lower-case words joined by '-').");

    assertThat(bulwark("findings", "--kind", "Bad")).isEqualTo(1);

    assertThat(err())
        .isEqualTo(
            "bulwark: 400 Invalid parameter: 'kind' is not a finding kind: 'Bad' (lower-case"
                + " words joined by '-')."
                + System.lineSeparator());
  }

  @Test
  void unauthorizedSaysTheTokenIsNotValid() {
    appliance.problem(
        "GET",
        "/api/v1/capacity",
        401,
        "Unauthorized",
        "the API token is unknown, expired or revoked");

    assertThat(bulwark("capacity")).isEqualTo(1);

    assertThat(err())
        .contains("bulwark: 401 Unauthorized: the API token is unknown, expired or revoked")
        .contains("the token is unknown, expired or revoked; check --token-file or BULWARK_TOKEN");
  }

  @Test
  void forbiddenSaysTheRoleMayNot() {
    appliance.problem(
        "POST", "/api/v1/findings/f-1/assign", 403, "Forbidden", "viewers may not do this");

    assertThat(bulwark("assign", "f-1", "bob")).isEqualTo(1);

    assertThat(err())
        .contains("bulwark: 403 Forbidden: viewers may not do this")
        .contains("the token's role may not do this");
  }

  @Test
  void aFindingThatIsNotThereIsARefusal() {
    assertThat(bulwark("finding", "f-missing")).isEqualTo(1);

    assertThat(err()).contains("bulwark: 404 Not found: Nothing is served at");
  }

  @Test
  void anAnswerWithoutAProblemStillSaysItsStatus() {
    appliance.answer("GET", "/api/v1/nodes", 502, "text/html", "<html>bad gateway</html>");

    assertThat(bulwark("nodes")).isEqualTo(1);

    assertThat(err()).isEqualTo("bulwark: 502 Bad gateway" + System.lineSeparator());
  }

  @Test
  void machinesWithoutTheRouteIsNotAvailable() {
    assertThat(bulwark("machines")).isEqualTo(4);

    assertThat(appliance.last().path()).isEqualTo("/api/v1/machines");
    assertThat(err())
        .isEqualTo(
            "bulwark: this appliance has no machines API (it arrives with the machines bundle)"
                + System.lineSeparator());
  }

  @Test
  void machinesWhereTheRouteIsThere() {
    try {
      appliance.answer(
          "GET",
          "/api/v1/machines",
          200,
          "{\"machines\":[{\"id\":\"m-1\",\"node\":\"node-1\",\"state\":\"ready\"}]}");

      assertThat(bulwark("machines")).isZero();

      assertThat(out()).containsPattern("m-1\\s+node-1\\s+ready").contains("1 machine");
    } finally {
      appliance.answer("GET", "/api/v1/machines", 404, "application/problem+json", "{}");
    }
  }

  // ---- Trust ----

  @Test
  void theRightFingerprintIsTrustedWhateverTheHostName() {
    appliance.answer("GET", "/api/v1/nodes", 200, "{\"nodes\":[],\"count\":0}");
    String lowerCase = fingerprint.toLowerCase(Locale.ROOT);

    assertThat(
            run(
                "--url",
                "https://localhost:" + appliance.port(),
                "--fingerprint",
                lowerCase,
                "--token-file",
                tokenFile.toString(),
                "nodes"))
        .isZero();
  }

  @Test
  void aWrongFingerprintIsRefused() throws Exception {
    String other = Trust.fingerprint(Certificates.selfSigned("localhost").certificate());
    int before = appliance.requests().size();

    int status =
        run(
            "--url",
            appliance.url(),
            "--fingerprint",
            other,
            "--token-file",
            tokenFile.toString(),
            "nodes");

    assertThat(status).isEqualTo(3);
    assertThat(err())
        .contains("TLS with 127.0.0.1:" + appliance.port() + " failed")
        .contains("SHA-256 fingerprint " + fingerprint + ", not the pinned " + other)
        .contains("check --fingerprint");
    assertThat(appliance.requests()).hasSize(before);
  }

  @Test
  void aCaIsTrustedForTheHostNamesItCertified() throws Exception {
    Certificates.Identity ca = Certificates.authority("Bulwark Test CA");
    Certificates.Identity server = Certificates.server(ca, "localhost");
    Path caFile = ca.writePem(folder.resolve("ca.pem"));
    try (StandIn issued = new StandIn(server)) {
      issued.answer("GET", "/api/v1/nodes", 200, "{\"nodes\":[],\"count\":0}");
      String[] common = {"--ca", caFile.toString(), "--token-file", tokenFile.toString(), "nodes"};

      assertThat(run(concat("--url", "https://localhost:" + issued.port(), common))).isZero();
      assertThat(issued.last().header("Authorization")).isEqualTo("Bearer " + TOKEN);

      // The certificate is for localhost, not 127.0.0.1: the host name check refuses it.
      int before = issued.requests().size();
      assertThat(run(concat("--url", "https://127.0.0.1:" + issued.port(), common))).isEqualTo(3);
      assertThat(err()).contains("TLS with 127.0.0.1:").contains("check --ca/--fingerprint");
      assertThat(issued.requests()).hasSize(before);
    }
  }

  @Test
  void anotherCaIsRefused() throws Exception {
    Path otherCa =
        Certificates.authority("Somebody Else's CA").writePem(folder.resolve("other.pem"));

    int status =
        run(
            "--url",
            "https://localhost:" + appliance.port(),
            "--ca",
            otherCa.toString(),
            "--token-file",
            tokenFile.toString(),
            "nodes");

    assertThat(status).isEqualTo(3);
    assertThat(err()).contains("check --ca/--fingerprint");
  }

  @Test
  void aCaFileWithoutACertificateIsAUsageError() throws Exception {
    Path notPem = Files.writeString(folder.resolve("ca.pem"), "not a certificate\n");

    assertThat(
            run(
                "--url",
                appliance.url(),
                "--ca",
                notPem.toString(),
                "--token-file",
                tokenFile.toString(),
                "nodes"))
        .isEqualTo(2);
    assertThat(err()).contains("holds no PEM certificate");
    assertThat(
            run(
                "--url",
                appliance.url(),
                "--ca",
                folder.resolve("absent.pem").toString(),
                "--token-file",
                tokenFile.toString(),
                "nodes"))
        .isEqualTo(2);
    assertThat(err()).contains("no such file");
  }

  @Test
  void nothingIsSentWithoutAWayToVerifyTheCertificate() {
    int before = appliance.requests().size();

    assertThat(run("--url", appliance.url(), "--token-file", tokenFile.toString(), "nodes"))
        .isEqualTo(2);
    assertThat(err()).contains("the appliance's certificate must be verified: give --ca FILE");

    assertThat(
            run(
                "--url",
                appliance.url(),
                "--ca",
                "x.pem",
                "--fingerprint",
                fingerprint,
                "--token-file",
                tokenFile.toString(),
                "nodes"))
        .isEqualTo(2);
    assertThat(err()).contains("give --ca or --fingerprint, not both");

    assertThat(
            run(
                "--url",
                appliance.url(),
                "--fingerprint",
                "AA:BB",
                "--token-file",
                tokenFile.toString(),
                "nodes"))
        .isEqualTo(2);
    assertThat(err()).contains("--fingerprint must be the certificate's SHA-256 fingerprint");

    assertThat(appliance.requests()).hasSize(before);
  }

  // ---- Connection and usage ----

  @Test
  void aClosedPortCannotBeReached() throws Exception {
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }

    int status =
        run(
            "--url",
            "https://127.0.0.1:" + port,
            "--fingerprint",
            fingerprint,
            "--token-file",
            tokenFile.toString(),
            "health");

    assertThat(status).isEqualTo(3);
    assertThat(err()).contains("bulwark: cannot connect to 127.0.0.1:" + port);
  }

  @Test
  void theTokenIsNeverACommandLineArgument() {
    assertThat(
            run("--url", appliance.url(), "--fingerprint", fingerprint, "--token", TOKEN, "nodes"))
        .isEqualTo(2);
    assertThat(err()).contains("--token is not accepted").contains("--token-file");
    assertThat(err()).doesNotContain(TOKEN);

    assertThat(run("--url", appliance.url(), "--fingerprint", fingerprint, "nodes")).isEqualTo(2);
    assertThat(err()).contains("no API token: give --token-file FILE or set BULWARK_TOKEN");
  }

  @Test
  void theUrlMustBeHttps() {
    assertThat(
            run(
                "--url",
                "http://127.0.0.1:8080",
                "--fingerprint",
                fingerprint,
                "--token-file",
                tokenFile.toString(),
                "nodes"))
        .isEqualTo(2);
    assertThat(err()).contains("--url must be https://");

    assertThat(run("--fingerprint", fingerprint, "--token-file", tokenFile.toString(), "nodes"))
        .isEqualTo(2);
    assertThat(err()).contains("no appliance: give --url https://HOST:8443 or set BULWARK_URL");
  }

  @Test
  void helpAndUsageErrors() {
    assertThat(run("--help")).isZero();
    assertThat(out()).contains("Usage: bulwark COMMAND").contains("findings").contains("snooze");

    assertThat(run("snooze", "--help")).isZero();
    assertThat(out())
        .contains("  bulwark snooze ID UNTIL [--comment TEXT]")
        .contains("  bulwark snooze ID --end")
        .contains("30m, 2h, 1d");

    assertThat(run("help", "export")).isZero();
    assertThat(out()).contains("  bulwark export [--format csv|json]");

    assertThat(run()).isEqualTo(2);
    assertThat(err()).contains("Usage: bulwark COMMAND");

    assertThat(run("frobnicate")).isEqualTo(2);
    assertThat(err()).contains("bulwark: unknown command 'frobnicate'");

    assertThat(run("nodes", "--state", "open")).isEqualTo(2);
    assertThat(err()).contains("unknown option --state for 'nodes'");

    assertThat(run("finding")).isEqualTo(2);
    assertThat(err()).contains("'finding' needs a finding id");
  }

  private static String[] concat(String a, String b, String[] rest) {
    String[] all = new String[rest.length + 2];
    all[0] = a;
    all[1] = b;
    System.arraycopy(rest, 0, all, 2, rest.length);
    return all;
  }
}
