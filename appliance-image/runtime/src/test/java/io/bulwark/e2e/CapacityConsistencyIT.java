package io.bulwark.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * One capacity model behind every view. Given faults of both origins on the shared appliance (an
 * XID and a thermal throttle on GPUs of one node, a memory error in another node's BMC event log: a
 * finding on the whole node), when the account, the node list, {@code /metrics} and the fleet grid
 * are read, then every GPU has one state everywhere: the state the node list gives it is the
 * account's, the grid's colour follows from it (failed is critical or missing, unknown is unknown,
 * degraded is a warning), the headline's counts are those of the GPUs and of {@code /metrics}, and
 * "Unhealthy only" keeps exactly the nodes with a GPU that is not healthy; the machine's page shows
 * its node's GPUs in the same states with the node's open findings, GPU and BMC alike, and the
 * node's page links back to the machine.
 */
@ExtendWith(SharedAppliance.class)
class CapacityConsistencyIT {
  private static final String GPU_NODE = SharedAppliance.node(37);
  private static final String BMC_NODE = SharedAppliance.node(38);
  private static final Pattern METRIC_STATE =
      Pattern.compile("(?m)^bulwark_gpus\\{state=\"(\\w+)\"} (\\d+)$");

  @Test
  void everyGpuHasOneStateInTheAccountTheNodeListMetricsAndTheGrid(
      RunningAppliance bulwark, ChromeDriver browser) throws Exception {
    List<String> faults = new ArrayList<>();
    try {
      faults.add(inject(bulwark, new JsonObject().put("kind", "xid").put("gpu", 2)));
      faults.add(inject(bulwark, new JsonObject().put("kind", "thermal-throttle").put("gpu", 6)));
      HttpResponse<String> sel =
          bulwark.send(
              "POST",
              bulwark.simUrl("/sim/bmcs/" + BMC_NODE + "/faults"),
              new JsonObject().put("kind", "sel-memory-ue").encode());
      assertThat(sel.statusCode()).as(sel.body()).isEqualTo(201);
      Runs.await(
          bulwark,
          "/api/v1/findings?state=open&node=" + GPU_NODE,
          j -> kinds(j).contains("xid") && kinds(j).contains("thermal-throttle"),
          90);
      // The BMC is read every 60 s.
      Runs.await(
          bulwark,
          "/api/v1/findings?state=open&node=" + BMC_NODE,
          j -> kinds(j).contains("bmc-sel-hardware"),
          150);

      Snapshot s = consistentSnapshot(bulwark);
      Map<String, Integer> counted = new HashMap<>();
      for (Object n : s.nodes.getJsonArray("nodes")) {
        JsonObject node = (JsonObject) n;
        for (Object o : node.getJsonArray("gpus")) {
          JsonObject gpu = (JsonObject) o;
          String key = node.getString("id") + "/" + gpu.getInteger("index");
          String state = gpu.getString("state");
          assertThat(state).as("state of %s", key).isEqualTo(s.account.get(key));
          assertThat(gpu.getString("health"))
              .as("colour of %s (%s)", key, state)
              .isIn(colours(state));
          counted.merge(state, 1, Integer::sum);
        }
      }
      JsonObject cap = s.capacity;
      assertThat(counted.getOrDefault("healthy", 0)).isEqualTo(cap.getInteger("gpusHealthy"));
      assertThat(counted.getOrDefault("degraded", 0)).isEqualTo(cap.getInteger("gpusDegraded"));
      assertThat(counted.getOrDefault("failed", 0)).isEqualTo(cap.getInteger("gpusFailed"));
      assertThat(counted.getOrDefault("unknown", 0)).isEqualTo(cap.getInteger("gpusUnknown"));
      Map<String, Integer> metrics = new HashMap<>();
      Matcher m = METRIC_STATE.matcher(s.metrics);
      while (m.find()) {
        metrics.put(m.group(1), Integer.parseInt(m.group(2)));
      }
      assertThat(metrics)
          .containsEntry("healthy", cap.getInteger("gpusHealthy"))
          .containsEntry("degraded", cap.getInteger("gpusDegraded"))
          .containsEntry("failed", cap.getInteger("gpusFailed"))
          .containsEntry("unknown", cap.getInteger("gpusUnknown"));
      // The BMC's finding is on the whole node: the account fails all its GPUs, the grid too.
      for (int gpu = 0; gpu < 8; gpu++) {
        assertThat(s.account.get(BMC_NODE + "/" + gpu)).isEqualTo("failed");
      }
      assertThat(s.account.get(GPU_NODE + "/2")).isEqualTo("failed");

      // The grid: each cell the colour the node list gives, the BMC node among "Unhealthy only".
      WebDriverWait wait = FleetPageBrowserIT.logIn(browser, bulwark, Duration.ofSeconds(60));
      wait.until(d -> !d.findElements(By.cssSelector("#fleet-grid [data-node]")).isEmpty());
      wait.until(
          d ->
              d.findElements(
                          By.cssSelector(
                              "#fleet-grid [data-node='" + BMC_NODE + "'][data-health='critical']"))
                      .size()
                  == 8);
      Map<String, String> apiHealth = healthByGpu(bulwark);
      List<String> differing = new ArrayList<>();
      wait.withMessage(() -> "grid cells that differ from the node list: " + differing)
          .until(
              d -> {
                differing.clear();
                // All cells read at once: the grid is redrawn whenever a GPU's state changes.
                @SuppressWarnings("unchecked")
                List<String> cells =
                    (List<String>)
                        ((ChromeDriver) d)
                            .executeScript(
                                "return [...document.querySelectorAll('#fleet-grid [data-gpu]')]"
                                    + ".map(c => c.dataset.node + '/' + c.dataset.gpu + ' '"
                                    + " + c.dataset.health)");
                for (String cell : cells) {
                  String key = cell.substring(0, cell.indexOf(' '));
                  String drawn = cell.substring(cell.indexOf(' ') + 1);
                  if (!drawn.equals(apiHealth.get(key))) {
                    differing.add(key + " drawn " + drawn + ", listed " + apiHealth.get(key));
                  }
                }
                if (!differing.isEmpty()) {
                  apiHealth.putAll(healthByGpu(bulwark));
                }
                return differing.isEmpty();
              });
      browser.findElement(By.id("fleet-unhealthy")).click();
      wait.until(
          d ->
              !d.findElements(By.cssSelector("#fleet-grid [data-node='" + BMC_NODE + "']"))
                  .isEmpty());
      wait.until(
          d ->
              d.findElements(By.cssSelector("#fleet-grid [data-gpu]")).stream()
                  .map(c -> c.getAttribute("data-node"))
                  .distinct()
                  .allMatch(
                      node ->
                          d
                              .findElements(
                                  By.cssSelector("#fleet-grid [data-node='" + node + "']"))
                              .stream()
                              .anyMatch(c -> !"healthy".equals(c.getAttribute("data-health")))));
      Path shots = Path.of(System.getProperty("bulwark.e2e.dir", "target/e2e"));
      Files.createDirectories(shots);
      Files.write(
          shots.resolve("fleet-unhealthy-bmc-node.png"),
          ((TakesScreenshot) browser).getScreenshotAs(OutputType.BYTES));

      // The machine (the demo names it as its node): its node's GPUs, failed by the BMC's finding.
      browser.get(bulwark.baseUrl() + "/#/machine/" + BMC_NODE);
      wait.until(
          d ->
              d.findElements(By.cssSelector("#machine-node-gpus tr[data-state='failed']")).size()
                  == 8);
      assertThat(browser.findElement(By.id("machine-node-findings")).getText())
          .contains("bmc-sel-hardware");
      browser.executeScript(
          "arguments[0].scrollIntoView()", browser.findElement(By.id("machine-node")));
      Files.write(
          shots.resolve("machine-node-panel.png"),
          ((TakesScreenshot) browser).getScreenshotAs(OutputType.BYTES));
      // Follow the link (the page head may cover it after the scroll above).
      browser.get(browser.findElement(By.id("machine-node-link")).getAttribute("href"));
      wait.until(
          d -> d.findElements(By.cssSelector("#gpu-list td[data-state='failed']")).size() == 8);
      assertThat(browser.findElement(By.cssSelector("a.node-machine")).getText())
          .isEqualTo(BMC_NODE);
      Files.write(
          shots.resolve("node-page-bmc-failed.png"),
          ((TakesScreenshot) browser).getScreenshotAs(OutputType.BYTES));

      // The findings page filters by every kind a detector reports, the BMC's included.
      browser.get(bulwark.baseUrl() + "/#/findings");
      wait.until(
          d ->
              !d.findElements(By.cssSelector("#filter-kind option[value='bmc-sel-hardware']"))
                      .isEmpty()
                  && !d.findElements(By.cssSelector("#filter-kind option[value='appliance']"))
                      .isEmpty()
                  && !d.findElements(By.cssSelector("#filter-kind option[value='xid']")).isEmpty());
    } finally {
      for (String id : faults) {
        bulwark.send("DELETE", bulwark.simUrl("/sim/faults/" + id), null);
      }
      bulwark.send("DELETE", bulwark.simUrl("/sim/bmcs/" + BMC_NODE + "/faults"), null);
    }
  }

  /** The colours a GPU in {@code state} may have on the grid. */
  private static String[] colours(String state) {
    return switch (state) {
      case "failed" -> new String[] {"critical", "missing"};
      case "unknown" -> new String[] {"unknown"};
      case "degraded" -> new String[] {"warning"};
      default -> new String[] {"healthy", "warning"};
    };
  }

  private static String inject(RunningAppliance bulwark, JsonObject fault) throws Exception {
    HttpResponse<String> r =
        bulwark.send("POST", bulwark.simUrl("/sim/faults"), fault.put("node", GPU_NODE).encode());
    assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
    return new JsonObject(r.body()).getString("id");
  }

  private static List<String> kinds(JsonObject findings) {
    return findings.getJsonArray("findings").stream()
        .map(f -> ((JsonObject) f).getString("kind"))
        .toList();
  }

  private static Map<String, String> healthByGpu(RunningAppliance bulwark) {
    Map<String, String> health = new HashMap<>();
    JsonObject nodes;
    try {
      nodes = new JsonObject(bulwark.get("/api/v1/nodes").body());
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
    for (Object n : nodes.getJsonArray("nodes")) {
      for (Object g : ((JsonObject) n).getJsonArray("gpus")) {
        health.put(
            ((JsonObject) n).getString("id") + "/" + ((JsonObject) g).getInteger("index"),
            ((JsonObject) g).getString("health"));
      }
    }
    return health;
  }

  /**
   * Reads the account, the node list and {@code /metrics} within one evaluation of the engine (the
   * account's time the same before and after), so that they describe the same moment.
   */
  private static Snapshot consistentSnapshot(RunningAppliance bulwark) throws Exception {
    for (int attempt = 0; attempt < 40; attempt++) {
      JsonObject before = new JsonObject(bulwark.get("/api/v1/capacity").body());
      JsonObject nodes = new JsonObject(bulwark.get("/api/v1/nodes").body());
      String metrics = bulwark.get("/metrics").body();
      JsonObject after = new JsonObject(bulwark.get("/api/v1/capacity").body());
      if (before.getString("at").equals(after.getString("at"))) {
        Map<String, String> account = new HashMap<>();
        JsonArray gpus = after.getJsonArray("gpus");
        for (Object o : gpus) {
          JsonObject g = (JsonObject) o;
          account.put(g.getString("node") + "/" + g.getInteger("gpu"), state(g));
        }
        return new Snapshot(after, nodes, metrics, account);
      }
    }
    throw new AssertionError("the account changed under every one of 40 readings");
  }

  private static String state(JsonObject g) {
    if (g.getBoolean("unknown")) {
      return "unknown";
    }
    if (!g.getBoolean("healthy")) {
      return "failed";
    }
    return g.getDouble("relativePerformance") < 1.0 ? "degraded" : "healthy";
  }

  private record Snapshot(
      JsonObject capacity, JsonObject nodes, String metrics, Map<String, String> account) {}
}
