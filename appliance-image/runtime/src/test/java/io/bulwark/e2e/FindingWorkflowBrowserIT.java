package io.bulwark.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The findings workflow in a real browser and over the API: a simulated XID opens a finding; from
 * the Findings page its summary links to the finding's own page (evidence as a table, cost so far,
 * timeline); there the admin acknowledges it with a comment, assigns it to themself and snoozes it,
 * and each step shows on the page and in the audit log. An operator's token may act on findings, an
 * auditor's may not (403). The CSV export carries the workflow; a maintenance window is listed on
 * the Maintenance page.
 */
@ExtendWith(SharedAppliance.class)
class FindingWorkflowBrowserIT {
  /** The shared fleet's nodes this class uses: an XID on the first, maintenance on the second. */
  private static final String NODE = SharedAppliance.node(30);

  private static final String MAINTENANCE_NODE = SharedAppliance.node(31);

  @Test
  void anOperatorWorksAFindingFromItsPage(RunningAppliance bulwark, ChromeDriver browser)
      throws Exception {
    Path work = bulwark.dataDir.getParent();
    String unique = Long.toString(System.nanoTime(), 36);
    String operatorToken = "ops-automation-" + unique;
    assertThat(
            bulwark
                .send(
                    "POST",
                    bulwark.simUrl("/sim/faults"),
                    new JsonObject().put("kind", "xid").put("node", NODE).put("gpu", 2).encode())
                .statusCode())
        .isEqualTo(201);
    String id = null;
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (id == null && System.nanoTime() < deadline) {
      var r = bulwark.get("/api/v1/findings?state=open&kind=xid&node=" + NODE);
      assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
      JsonArray open = new JsonObject(r.body()).getJsonArray("findings");
      if (!open.isEmpty()) {
        id = open.getJsonObject(0).getString("id");
      }
      Thread.sleep(500);
    }
    assertThat(id).as("an xid finding opened").isNotNull();
    String findingId = id;
    Path shots = Path.of(System.getProperty("bulwark.e2e.dir", "target/e2e"));

    WebDriverWait wait = FleetPageBrowserIT.logIn(browser, bulwark, Duration.ofSeconds(60));
    wait.until(d -> d.findElement(By.cssSelector("#nav a[data-nav='findings']"))).click();
    // The table re-renders as events arrive: find and click in one step, retried when stale.
    wait.until(
        d -> {
          d.findElement(By.cssSelector("tr[data-finding-id='" + findingId + "'] a.finding-link"))
              .click();
          return true;
        });
    wait.until(d -> d.findElement(By.id("finding-evidence")));
    assertThat(browser.findElement(By.cssSelector(".page-head h1")).getText())
        .contains("xid on " + NODE + " GPU 2");
    assertThat(browser.findElement(By.id("finding-evidence")).getText())
        .contains("DCGM_FI_DEV_XID_ERRORS")
        .contains("79");
    assertThat(browser.findElement(By.id("finding-cost")).getText()).contains("GPU-hours");

    browser.findElement(By.id("finding-comment")).sendKeys("Reseating GPU 2 in the next window");
    browser.findElement(By.id("finding-ack")).click();
    wait.until(d -> d.findElement(By.id("finding-acked")).getText().contains("admin"));
    browser.findElement(By.id("finding-assign-me")).click();
    wait.until(d -> d.findElement(By.id("finding-assignee")).getText().contains("admin"));
    browser.findElement(By.id("finding-snooze")).click();
    wait.until(d -> !d.findElements(By.id("finding-snoozed")).isEmpty());
    String timeline = browser.findElement(By.id("finding-timeline")).getText();
    assertThat(timeline)
        .contains("opened")
        .contains("acknowledged by admin: Reseating GPU 2 in the next window")
        .contains("assigned by admin: admin")
        .contains("snoozed by admin");
    Files.createDirectories(shots);
    Files.write(
        shots.resolve("finding.png"),
        ((TakesScreenshot) browser).getScreenshotAs(OutputType.BYTES));

    // Maintenance on another node, listed on its page.
    HttpResponse<String> started =
        bulwark.send(
            "POST",
            bulwark.baseUrl() + "/api/v1/maintenance",
            new JsonObject()
                .put("node", MAINTENANCE_NODE)
                .put("until", Instant.now().plus(Duration.ofHours(2)).toString())
                .put("reason", "firmware update, ticket 4711")
                .encode());
    assertThat(started.statusCode()).as(started.body()).isEqualTo(201);
    browser.findElement(By.cssSelector("#nav a[data-nav='maintenance']")).click();
    wait.until(d -> d.findElement(By.id("maintenance-list")).getText().contains("ticket 4711"));
    Files.write(
        shots.resolve("maintenance.png"),
        ((TakesScreenshot) browser).getScreenshotAs(OutputType.BYTES));
    String window = new JsonObject(started.body()).getString("id");
    assertThat(
            bulwark
                .send("DELETE", bulwark.baseUrl() + "/api/v1/maintenance/" + window, null)
                .statusCode())
        .as("the window ends, so the shared fleet's node is no longer held back")
        .isEqualTo(204);

    // Roles: an operator's token may act on findings; an auditor's may read but not act.
    String operator = token(bulwark, operatorToken, "operator");
    String auditor = token(bulwark, "compliance-" + unique, "auditor");
    HttpClient http = PinnedCertificate.client(work.resolve("console.log"));
    assertThat(
            post(http, bulwark, operator, findingId, "comments", "{\"text\":\"from automation\"}"))
        .isEqualTo(201);
    assertThat(post(http, bulwark, auditor, findingId, "acknowledge", "{}")).isEqualTo(403);
    HttpResponse<String> asAuditor =
        http.send(
            HttpRequest.newBuilder(URI.create(bulwark.baseUrl() + "/api/v1/findings/" + findingId))
                .header("Authorization", "Bearer " + auditor)
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(asAuditor.statusCode()).isEqualTo(200);
    JsonObject workflow = new JsonObject(asAuditor.body()).getJsonObject("workflow");
    assertThat(workflow.getString("acknowledgedBy")).isEqualTo("admin");
    assertThat(workflow.getString("assignee")).isEqualTo("admin");
    assertThat(workflow.getJsonArray("comments").encode()).contains("from automation");

    HttpResponse<String> csv = bulwark.get("/api/v1/findings.csv?state=open");
    assertThat(csv.statusCode()).isEqualTo(200);
    assertThat(csv.headers().firstValue("Content-Type").orElse("")).startsWith("text/csv");
    assertThat(csv.headers().firstValue("Content-Disposition").orElse("")).contains("attachment");
    assertThat(csv.body().lines().filter(l -> l.startsWith(findingId + ",")).findFirst().orElse(""))
        .contains("," + NODE + ",2,")
        .contains(",admin,admin,");

    // The command-line client, as an operator's automation would run it.
    Path tokenFile = work.resolve("operator.token");
    Files.writeString(tokenFile, operator);
    String fingerprint = PinnedCertificate.printedFingerprint(work.resolve("console.log"));
    Cli listed =
        cli(bulwark, tokenFile, fingerprint, "findings", "--state", "open", "--kind", "xid");
    assertThat(listed.exit()).as(listed.output()).isZero();
    assertThat(listed.output()).contains(NODE);
    Cli acked =
        cli(bulwark, tokenFile, fingerprint, "ack", findingId, "--comment", "seen from the CLI");
    assertThat(acked.exit()).as(acked.output()).isZero();
    Path csvFile = work.resolve("export.csv");
    Cli exported =
        cli(
            bulwark,
            tokenFile,
            fingerprint,
            "export",
            "--format",
            "csv",
            "--out",
            csvFile.toString());
    assertThat(exported.exit()).as(exported.output()).isZero();
    assertThat(Files.readString(csvFile))
        .contains(findingId)
        .contains("," + tokenId(bulwark, operatorToken) + ",admin,");
    Cli wrongPin =
        cli(
            bulwark,
            tokenFile,
            fingerprint.replaceFirst("^..", fingerprint.startsWith("00") ? "11" : "00"),
            "health");
    assertThat(wrongPin.exit()).as(wrongPin.output()).isEqualTo(3);

    for (String action :
        new String[] {
          "finding.acknowledge", "finding.assign", "finding.snooze", "finding.comment"
        }) {
      assertThat(bulwark.get("/api/v1/audit?action=" + action + "&limit=100").body())
          .as("audit records of %s", action)
          .contains(findingId);
    }
    assertThat(bulwark.get("/api/v1/audit?action=maintenance.start&limit=100").body())
        .contains(MAINTENANCE_NODE);
  }

  private record Cli(int exit, String output) {}

  private static Cli cli(
      RunningAppliance bulwark, Path tokenFile, String fingerprint, String... args)
      throws Exception {
    java.util.List<String> command = new java.util.ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-jar");
    command.add(System.getProperty("bulwark.cli.jar"));
    command.addAll(
        java.util.List.of(
            "--url",
            bulwark.baseUrl(),
            "--token-file",
            tokenFile.toString(),
            "--fingerprint",
            fingerprint));
    command.addAll(java.util.List.of(args));
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out =
        new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    if (!p.waitFor(60, java.util.concurrent.TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError("the CLI did not finish: " + out);
    }
    return new Cli(p.exitValue(), out);
  }

  private static String token(RunningAppliance bulwark, String name, String role) throws Exception {
    return Runs.issueToken(bulwark, name, role).getString("token");
  }

  /** Returns the id of the token whose secret is {@code token}, as audit records name it. */
  private static String tokenId(RunningAppliance bulwark, String name) throws Exception {
    JsonArray tokens = new JsonObject(bulwark.get("/api/v1/tokens").body()).getJsonArray("tokens");
    for (int i = 0; i < tokens.size(); i++) {
      if (tokens.getJsonObject(i).getString("name").equals(name)) {
        return tokens.getJsonObject(i).getString("id");
      }
    }
    throw new AssertionError("no token " + name + " in " + tokens.encode());
  }

  private static int post(
      HttpClient http,
      RunningAppliance bulwark,
      String token,
      String id,
      String action,
      String body)
      throws Exception {
    return http.send(
            HttpRequest.newBuilder(
                    URI.create(bulwark.baseUrl() + "/api/v1/findings/" + id + "/" + action))
                .header("Authorization", "Bearer " + token)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build(),
            HttpResponse.BodyHandlers.ofString())
        .statusCode();
  }
}
