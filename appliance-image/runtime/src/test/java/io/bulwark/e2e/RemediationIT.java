package io.bulwark.e2e;

import static io.bulwark.e2e.Runs.await;
import static io.bulwark.e2e.Runs.currentStep;
import static io.bulwark.e2e.Runs.get;
import static io.bulwark.e2e.Runs.step;
import static org.assertj.core.api.Assertions.assertThat;

import io.bulwark.testing.alerting.WebhookCapture;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Remediation end to end on the demo fleet, policies in automatic mode: the simulator injects XID
 * 79 on a node whose machine has a simulated Redfish BMC; the finding becomes a run; the machine
 * goes Quarantined then Remediating; no scheduler drains it, so the power cycle waits for an
 * operator who confirms on the run's page that its jobs are killed; it is power-cycled through its
 * BMC (which clears the fault, as a reboot does), the finding clears, re-validation soaks. The
 * appliance is killed with SIGKILL during the soak; after the restart the run goes on at the
 * re-validation step and ends well, the machine back to Deployed, every step in the audit log. Then
 * faults on 30% of the fleet at once: one node (10% of 16, rounded down, at least one) is isolated,
 * the rest are held back by the guardrail and say so on the page.
 */
class RemediationIT {
  private static final String NODE = "gpu-node-001";

  @Test
  void anXid79BecomesAPowerCycledRevalidatedNodeAndSurvivesAKill9() throws Exception {
    Path work = RunningAppliance.workDir("remediation");
    Map<String, String> env = new HashMap<>();
    env.put("BULWARK_SIM_NODES", "16");
    env.put("BULWARK_SIM_SCENARIO", "none");
    env.put("BULWARK_REMEDIATION_MODE", "automatic");
    // A soak long enough to be killed in, short enough not to be waited out three times over.
    env.put("BULWARK_REMEDIATION_SOAK_SECONDS", "12");
    String runId;
    int simPort;
    try (RunningAppliance bulwark = RunningAppliance.demo(work, env)) {
      bulwark.awaitUp(Duration.ofSeconds(90));
      bulwark.login();
      simPort = bulwark.simPort;
      JsonObject machine =
          await(
              bulwark,
              "/api/v1/machines/" + NODE,
              m -> "deployed".equals(m.getString("state")),
              90);
      assertThat(machine.getString("node")).isEqualTo(NODE);
      JsonObject overview = get(bulwark, "/api/v1/remediation");
      assertThat(overview.getJsonArray("steps").getList())
          .contains(
              "drain", "wait-drained", "power-cycle", "wait-resolved", "revalidate", "resume");

      Runs.injectXid79(bulwark, NODE, 0);
      long injected = System.nanoTime();
      JsonObject run = awaitRun(bulwark, NODE, r -> true, 60);
      runId = run.getString("id");
      System.out.printf(
          "remediation: XID 79 injected -> run started in %.1f s%n",
          (System.nanoTime() - injected) / 1e9);
      assertThat(run.getString("policy")).isEqualTo("gpu-off-the-bus");
      assertThat(run.getString("mode")).isEqualTo("automatic");
      // No scheduler drains the node: even in automatic mode, the power cycle waits for a person
      // who confirms that any job on the node is killed.
      JsonObject asking =
          await(
              bulwark,
              "/api/v1/remediation/runs/" + runId,
              r -> "awaiting-approval".equals(r.getString("state")),
              90);
      // The first such step is the (optional) GPU reset; one approval covers the run's later ones.
      assertThat(currentStep(asking)).isEqualTo("gpu-reset");
      assertThat(asking.getBoolean("approvalKillsJobs")).isTrue();
      assertThat(step(asking, "gpu-reset").getString("detail"))
          .contains(
              "no scheduler drains " + NODE,
              "kills any job still running on " + NODE,
              "the approval also lets power-cycle go on");
      assertThat(get(bulwark, "/api/v1/machines/" + NODE + "/history").encode())
          .doesNotContain("power-cycle");
      String approve = bulwark.baseUrl() + "/api/v1/remediation/runs/" + runId + "/approve";
      int at = asking.getInteger("current");
      HttpResponse<String> unknowing =
          bulwark.send("POST", approve, new JsonObject().put("step", at).encode());
      assertThat(unknowing.statusCode()).as(unknowing.body()).isEqualTo(409);
      assertThat(unknowing.body()).contains("jobsMayBeKilled");
      approveInTheBrowser(bulwark, runId);
      JsonObject soaking =
          await(
              bulwark,
              "/api/v1/remediation/runs/" + runId,
              r -> "revalidate".equals(currentStep(r)),
              180);
      assertThat(step(soaking, "power-cycle").getString("status")).isEqualTo("done");
      assertThat(step(soaking, "wait-resolved").getString("status")).isEqualTo("done");
      assertThat(step(soaking, "drain").getString("status")).isEqualTo("skipped");
      assertThat(step(soaking, "drain").getString("detail")).contains("no scheduler connector");
      assertThat(get(bulwark, "/api/v1/machines/" + NODE).getString("state"))
          .isEqualTo("remediating");

      // SIGKILL in the soak: nothing is shut down cleanly.
      bulwark.process.destroyForcibly().waitFor(20, TimeUnit.SECONDS);
    }

    env.put(
        "BULWARK_SIM_PORT", Integer.toString(simPort)); // the machines' BMCs stay where they are
    try (RunningAppliance bulwark = RunningAppliance.demo(work, env)) {
      bulwark.awaitUp(Duration.ofSeconds(90));
      bulwark.login();
      JsonObject done =
          await(
              bulwark,
              "/api/v1/remediation/runs/" + runId,
              r -> !"running".equals(r.getString("state")),
              180);
      assertThat(done.getString("state")).as(done.encodePrettily()).isEqualTo("succeeded");
      assertThat(step(done, "revalidate").getString("status")).isEqualTo("done");
      assertThat(step(done, "power-cycle").getInteger("attempts"))
          .as("the power cycle was not asked for again after the restart")
          .isLessThan(40);
      assertThat(get(bulwark, "/api/v1/machines/" + NODE).getString("state")).isEqualTo("deployed");
      String history = bulwark.get("/api/v1/machines/" + NODE + "/history").body();
      assertThat(history).contains("quarantine", "remediate", "power-cycle done");
      String audit = bulwark.get("/api/v1/audit?action=remediation.step-end&limit=100").body();
      assertThat(audit).contains("power-cycle", "revalidate");

      tellsFacilitiesThroughTheChannelNamedSo(bulwark);

      // An admin makes the policy's soak ten minutes long (a new version), so the run that gets
      // the isolation slot keeps it while the page is looked at.
      JsonObject policy = get(bulwark, "/api/v1/remediation/policies/gpu-off-the-bus");
      for (Object o : policy.getJsonArray("steps")) {
        JsonObject s = (JsonObject) o;
        if (s.getString("step").equals("revalidate")) {
          s.put("parameters", new JsonObject().put("soakSeconds", "600"));
        }
      }
      for (String f : List.of("id", "version", "updatedBy", "updatedAt", "versions")) {
        policy.remove(f);
      }
      HttpResponse<String> saved =
          bulwark.send(
              "PUT",
              bulwark.baseUrl() + "/api/v1/remediation/policies/gpu-off-the-bus",
              policy.encode());
      assertThat(saved.statusCode()).as(saved.body()).isEqualTo(200);
      assertThat(new JsonObject(saved.body()).getInteger("version")).isEqualTo(2);

      // Faults on 5 of 16 nodes at once: the isolation limit holds the line.
      for (int i = 3; i <= 7; i++) {
        Runs.injectXid79(bulwark, String.format("gpu-node-%03d", i), 1);
      }
      JsonObject held =
          await(
              bulwark,
              "/api/v1/remediation",
              o -> o.getJsonObject("runs").getInteger("held") == 4 && o.getInteger("isolated") == 1,
              90);
      assertThat(held.getInteger("isolationLimit")).isEqualTo(1);
      // A run is stored held (no reason yet) when its finding opens, and gets its reason at the
      // next guardrail pass: wait for the four reasons.
      JsonArray heldRuns =
          await(
                  bulwark,
                  "/api/v1/remediation/runs?state=held",
                  o ->
                      o.getJsonArray("runs").size() == 4
                          && o.getJsonArray("runs").stream()
                              .allMatch(r -> !((JsonObject) r).getString("held", "").isEmpty()),
                  60)
              .getJsonArray("runs");
      assertThat(heldRuns).hasSize(4);
      for (Object o : heldRuns) {
        assertThat(((JsonObject) o).getString("held")).startsWith("isolation limit: 1 of 1");
      }

      String poweredOff = aPowerOffByHandPassesTheSameGuardrails(bulwark);

      ChromeDriver browser = FleetPageBrowserIT.headlessChromium();
      try {
        WebDriverWait wait = FleetPageBrowserIT.logIn(browser, bulwark, Duration.ofSeconds(60));
        browser.get(bulwark.baseUrl() + "/#/remediation");
        wait.until(
            d -> d.findElements(By.cssSelector("#runs-table tr[data-state='held']")).size() == 4);
        assertThat(browser.findElement(By.id("isolated")).getText()).contains("1 of 1");
        assertThat(
                browser
                    .findElement(By.cssSelector("#runs-table tr[data-state='held'] .run-step"))
                    .getText())
            .contains("isolation limit");
        Path dir = Path.of(System.getProperty("bulwark.e2e.dir", "target/e2e"));
        Files.write(
            dir.resolve("remediation.png"),
            ((TakesScreenshot) browser).getScreenshotAs(OutputType.BYTES));
        // Another deployed machine's page shows the guardrail before anyone clicks (the machine
        // powered off by hand counts too); an admin's buttons for what takes it out of service are
        // overrides.
        String other =
            get(bulwark, "/api/v1/machines?state=deployed&power=on")
                .getJsonArray("machines")
                .stream()
                .map(JsonObject.class::cast)
                .map(m -> m.getString("id"))
                .filter(id -> !id.equals(poweredOff) && !id.equals("gpu-node-012"))
                .findFirst()
                .orElseThrow();
        browser.get(bulwark.baseUrl() + "/#/machine/" + other);
        wait.until(d -> !d.findElements(By.id("machine-guardrail-refusal")).isEmpty());
        assertThat(browser.findElement(By.id("machine-guardrail-refusal")).getText())
            .contains(
                "Guardrail: isolation limit: 2 of 1 node(s) already out of service (1 by remediation"
                    + " runs, 1 by hand");
        assertThat(
                browser
                    .findElement(By.cssSelector("#machine-actions button[data-op='power-off']"))
                    .getText())
            .isEqualTo("power off (override)");
        Files.write(
            dir.resolve("machine-guardrail.png"),
            ((TakesScreenshot) browser).getScreenshotAs(OutputType.BYTES));
        browser.get(bulwark.baseUrl() + "/#/remediation-run/" + runId);
        wait.until(
            d -> d.findElements(By.cssSelector("#run-steps li[data-status='done']")).size() == 3);
        assertThat(
                browser
                    .findElement(By.cssSelector("#run-steps li[data-step='power-cycle']"))
                    .getText())
            .contains("power-cycled through its BMC");
        Files.write(
            dir.resolve("remediation-run.png"),
            ((TakesScreenshot) browser).getScreenshotAs(OutputType.BYTES));
      } finally {
        browser.quit();
      }
    }
  }

  /**
   * A power-off by hand takes a deployed machine out of service as a run would, so it passes the
   * same guardrails: with the site's one isolation slot taken by a run, an operator's power-off is
   * refused naming the limit; only an admin overrides, and only with a written reason, which the
   * audit record keeps with the refusal overridden.
   */
  private static String aPowerOffByHandPassesTheSameGuardrails(RunningAppliance bulwark)
      throws Exception {
    Set<String> busy = Set.of(NODE, "gpu-node-003", "gpu-node-004", "gpu-node-005", "gpu-node-006");
    String machine =
        get(bulwark, "/api/v1/machines?state=deployed").getJsonArray("machines").stream()
            .map(JsonObject.class::cast)
            .map(m -> m.getString("id"))
            .filter(id -> !busy.contains(id) && !id.equals("gpu-node-007"))
            .filter(id -> !id.equals("gpu-node-012"))
            .findFirst()
            .orElseThrow();
    JsonObject detail = get(bulwark, "/api/v1/machines/" + machine);
    assertThat(detail.getString("guardrail")).startsWith("isolation limit: 1 of 1");
    String operator = Runs.issueToken(bulwark, "night-shift", "operator").getString("token");
    String path = "/api/v1/machines/" + machine + "/power-off";
    HttpResponse<String> refused =
        bulwark.request(
            "POST",
            path,
            new JsonObject().put("reason", "cabling").encode(),
            "Authorization",
            "Bearer " + operator,
            "Content-Type",
            "application/json");
    assertThat(refused.statusCode()).as(refused.body()).isEqualTo(409);
    assertThat(refused.body()).contains("isolation limit: 1 of 1", "override");
    HttpResponse<String> notAdmin =
        bulwark.request(
            "POST",
            path,
            new JsonObject().put("reason", "cabling").put("override", true).encode(),
            "Authorization",
            "Bearer " + operator,
            "Content-Type",
            "application/json");
    assertThat(notAdmin.statusCode()).as(notAdmin.body()).isEqualTo(403);
    HttpResponse<String> noReason =
        bulwark.send("POST", path, new JsonObject().put("override", true).encode());
    assertThat(noReason.statusCode()).as(noReason.body()).isEqualTo(400);
    assertThat(get(bulwark, "/api/v1/machines/" + machine).getString("power")).isEqualTo("on");
    HttpResponse<String> overridden =
        bulwark.send(
            "POST",
            path,
            new JsonObject()
                .put("reason", "PDU swap agreed with the site lead")
                .put("override", true)
                .encode());
    assertThat(overridden.statusCode()).as(overridden.body()).isEqualTo(202);
    JsonObject audit =
        get(bulwark, "/api/v1/audit?action=machine.power-off&outcome=success&limit=10");
    assertThat(audit.encode())
        .contains("guardrailOverridden", "isolation limit: 1 of 1", "PDU swap agreed");
    return machine;
  }

  /**
   * Approves the waiting step on the run's page as an operator would: the confirmation says that
   * the node's jobs will be killed.
   */
  private static void approveInTheBrowser(RunningAppliance bulwark, String runId) throws Exception {
    ChromeDriver browser = FleetPageBrowserIT.headlessChromium();
    try {
      WebDriverWait wait = FleetPageBrowserIT.logIn(browser, bulwark, Duration.ofSeconds(60));
      browser.get(bulwark.baseUrl() + "/#/remediation-run/" + runId);
      wait.until(d -> !d.findElements(By.id("run-kills-jobs")).isEmpty());
      assertThat(browser.findElement(By.id("run-kills-jobs")).getText())
          .contains("No scheduler drains " + NODE, "kills any job still running on it");
      browser.findElement(By.id("run-approve")).click();
      wait.until(
          d ->
              d.findElement(By.id("run-approve"))
                  .getText()
                  .equals("Confirm: jobs on " + NODE + " will be killed"));
      Path dir = Path.of(System.getProperty("bulwark.e2e.dir", "target/e2e"));
      Files.write(
          dir.resolve("remediation-run-kills-jobs.png"),
          ((TakesScreenshot) browser).getScreenshotAs(OutputType.BYTES));
      browser.findElement(By.id("run-approve")).click();
      wait.until(d -> d.findElements(By.id("run-kills-jobs")).isEmpty());
    } finally {
      browser.quit();
    }
  }

  /**
   * Thermal throttling on another node: its run tells facilities through the webhook channel named
   * so (which carries only critical findings itself), then the cooling is mended and the run
   * returns the node, freeing the isolation slot for what follows.
   */
  private static void tellsFacilitiesThroughTheChannelNamedSo(RunningAppliance bulwark)
      throws Exception {
    String node = "gpu-node-012"; // busy: the simulator's gpu-node-010 idles, never throttles
    try (WebhookCapture facilities = WebhookCapture.start()) {
      HttpResponse<String> channel =
          bulwark.send(
              "PUT",
              bulwark.baseUrl() + "/api/v1/notify/channels/facilities",
              new JsonObject()
                  .put("type", "webhook")
                  .put(
                      "settings",
                      new JsonObject()
                          .put("url", facilities.url("/in").toString())
                          .put("allowPlaintext", "true")
                          .put("format", "json"))
                  .put("route", new JsonObject().put("minSeverity", "critical"))
                  .encode());
      assertThat(channel.statusCode()).as(channel.body()).isEqualTo(201);
      HttpResponse<String> fault =
          bulwark.send(
              "POST",
              bulwark.simUrl("/sim/faults"),
              new JsonObject()
                  .put("kind", "thermal-throttle")
                  .put("node", node)
                  .put("gpu", 2)
                  .encode());
      assertThat(fault.statusCode()).as(fault.body()).isEqualTo(201);
      String faultId = new JsonObject(fault.body()).getString("id");

      JsonObject notice = null;
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(150);
      while (notice == null && System.nanoTime() < deadline) {
        Thread.sleep(500);
        for (WebhookCapture.Captured c : facilities.requests()) {
          for (Object o : new JsonObject(c.body()).getJsonArray("notifications")) {
            if ("notice".equals(((JsonObject) o).getString("event"))) {
              notice = (JsonObject) o;
            }
          }
        }
      }
      assertThat(notice).as("a notice reached the facilities channel").isNotNull();
      assertThat(notice.getString("notice"))
          .startsWith(node + " needs attention because of thermal-throttle: GPU 2 of " + node);
      assertThat(notice.getJsonObject("finding").getString("kind")).isEqualTo("thermal-throttle");
      JsonObject run = awaitRun(bulwark, node, r -> true, 10);
      assertThat(run.getString("policy")).isEqualTo("thermal-throttle");
      JsonObject told =
          await(
              bulwark,
              "/api/v1/remediation/runs/" + run.getString("id"),
              r -> "done".equals(step(r, "notify").getString("status")),
              30);
      assertThat(step(told, "notify").getString("detail")).contains("sent through facilities");
      assertThat(bulwark.get("/api/v1/audit?action=remediation.notify&limit=10").body())
          .contains(node, "facilities");

      // The cooling is mended: the finding clears, the node is re-validated and returned.
      HttpResponse<String> cleared =
          bulwark.send("DELETE", bulwark.simUrl("/sim/faults/" + faultId), null);
      assertThat(cleared.statusCode()).as(cleared.body()).isBetween(200, 204);
      JsonObject ended =
          await(
              bulwark,
              "/api/v1/remediation/runs/" + run.getString("id"),
              r -> !"running".equals(r.getString("state")),
              180);
      assertThat(ended.getString("state")).as(ended.encodePrettily()).isEqualTo("succeeded");
      HttpResponse<String> deleted =
          bulwark.send("DELETE", bulwark.baseUrl() + "/api/v1/notify/channels/facilities", null);
      assertThat(deleted.statusCode()).as(deleted.body()).isBetween(200, 204);
    }
  }

  private static JsonObject awaitRun(
      RunningAppliance bulwark, String node, Predicate<JsonObject> test, int seconds)
      throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    while (System.nanoTime() < deadline) {
      List<Object> runs =
          get(bulwark, "/api/v1/remediation/runs?node=" + node).getJsonArray("runs").getList();
      for (Object o : runs) {
        JsonObject r = o instanceof JsonObject j ? j : new JsonObject((Map<String, Object>) o);
        if (test.test(r)) {
          return r;
        }
      }
      Thread.sleep(250);
    }
    throw new AssertionError(
        "no remediation run for " + node + " within " + seconds + " s:\n" + bulwark.console());
  }
}
