package io.bulwark.e2e;

import static io.bulwark.e2e.Runs.await;
import static io.bulwark.e2e.Runs.get;
import static io.bulwark.e2e.Runs.step;
import static org.assertj.core.api.Assertions.assertThat;

import io.bulwark.testing.slurm.SlurmCluster;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Remediation against a real Slurm cluster (slurmctld, one slurmd per node, munge: Debian's
 * slurm-wlm, started on loopback by the test) whose node names are the demo fleet's: the simulator
 * injects XID 79 on a node that runs a job; the appliance drains it in slurmctld with the finding
 * in the reason, waits while the job runs (DRAINING), and once the job has ended (DRAINED)
 * power-cycles the machine through its simulated BMC, which clears the fault; the finding clears,
 * re-validation soaks, and the node is resumed: idle in Slurm again. The run page shows every step
 * live; the audit log holds them.
 */
class SlurmRemediationIT {
  private static final int NODES = 8;
  private static final String NODE = "gpu-node-002";

  @Test
  void anXid79DrainsTheNodeInSlurmWaitsForItsJobRepairsItAndResumesIt() throws Exception {
    Path work = RunningAppliance.workDir("slurm-remediation");
    List<String> names = new ArrayList<>();
    for (int i = 1; i <= NODES; i++) {
      names.add(String.format("gpu-node-%03d", i));
    }
    try (SlurmCluster slurm = SlurmCluster.start(work.resolve("slurm"), names);
        RunningAppliance bulwark =
            RunningAppliance.demo(
                work,
                Map.of(
                    "BULWARK_SIM_NODES", Integer.toString(NODES),
                    "BULWARK_SIM_SCENARIO", "none",
                    "BULWARK_REMEDIATION_MODE", "automatic",
                    "BULWARK_REMEDIATION_SOAK_SECONDS", "10",
                    "BULWARK_SLURM_CONF", slurm.slurmConf().toString()))) {
      bulwark.awaitUp(Duration.ofSeconds(90));
      bulwark.login();
      await(bulwark, "/api/v1/machines/" + NODE, m -> "deployed".equals(m.getString("state")), 90);
      await(
          bulwark, "/api/v1/remediation", o -> o.getJsonArray("schedulers").contains("slurm"), 30);
      String job = slurm.submit(NODE, Duration.ofMinutes(10));

      Runs.injectXid79(bulwark, NODE, 0);

      // Drained in slurmctld with the finding named, the job still on the node.
      String drained = awaitSlurm(slurm, s -> s.contains("DRAIN"), 60);
      assertThat(drained).contains("Reason=bulwark: xid (run-").contains("XID 79 on GPU 0");
      assertThat(drained).contains("XID 79");
      JsonObject run = firstRun(bulwark);
      String id = run.getString("id");
      JsonObject draining =
          await(
              bulwark,
              "/api/v1/remediation/runs/" + id,
              r -> step(r, "wait-drained").getString("detail", "").contains(job),
              30);
      assertThat(step(draining, "drain").getString("status")).isEqualTo("done");
      assertThat(step(draining, "power-cycle").getString("status"))
          .as("nothing is done to the machine while its job runs")
          .isEqualTo("pending");

      slurm.cancel(job);
      JsonObject done =
          await(
              bulwark,
              "/api/v1/remediation/runs/" + id,
              r -> !"running".equals(r.getString("state")),
              180);
      assertThat(done.getString("state")).as(done.encodePrettily()).isEqualTo("succeeded");
      for (String s :
          List.of(
              "drain", "wait-drained", "power-cycle", "wait-resolved", "revalidate", "resume")) {
        assertThat(step(done, s).getString("status")).as(s).isEqualTo("done");
      }
      String back = slurm.scontrol("show", "node", NODE);
      assertThat(back).doesNotContain("DRAIN");
      assertThat(back).contains("State=IDLE");
      assertThat(get(bulwark, "/api/v1/machines/" + NODE).getString("state")).isEqualTo("deployed");
      String audit = bulwark.get("/api/v1/audit?action=remediation.step-end&limit=100").body();
      assertThat(audit).contains("drain", "wait-drained", "resume");

      ChromeDriver browser = FleetPageBrowserIT.headlessChromium();
      try {
        WebDriverWait wait = FleetPageBrowserIT.logIn(browser, bulwark, Duration.ofSeconds(60));
        browser.get(bulwark.baseUrl() + "/#/remediation-run/" + id);
        wait.until(
            d -> d.findElements(By.cssSelector("#run-steps li[data-status='done']")).size() == 6);
        assertThat(
                browser.findElement(By.cssSelector("#run-steps li[data-step='drain']")).getText())
            .contains("drain issued to slurm");
        Path dir = Path.of(System.getProperty("bulwark.e2e.dir", "target/e2e"));
        Files.write(
            dir.resolve("remediation-slurm-run.png"),
            ((TakesScreenshot) browser).getScreenshotAs(OutputType.BYTES));
      } finally {
        browser.quit();
      }
    }
  }

  private static String awaitSlurm(SlurmCluster slurm, Predicate<String> test, int seconds)
      throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    String last = "";
    while (System.nanoTime() < deadline) {
      last = slurm.scontrol("show", "node", NODE);
      if (test.test(last)) {
        return last;
      }
      Thread.sleep(200);
    }
    throw new AssertionError("slurmctld never showed the expected state of " + NODE + ":\n" + last);
  }

  private static JsonObject firstRun(RunningAppliance bulwark) throws Exception {
    JsonArray runs = get(bulwark, "/api/v1/remediation/runs?node=" + NODE).getJsonArray("runs");
    assertThat(runs).isNotEmpty();
    return runs.getJsonObject(0);
  }
}
