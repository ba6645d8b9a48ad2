package io.bulwark.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The fleet page at 2,048 nodes (16,384 GPUs) in headless Chromium: a heatmap instead of 16,384
 * cells, under 5,000 DOM elements, the faulty nodes listed as links, hover naming the GPU under the
 * pointer; and the figures of the page's own performance marks (first render and interactive,
 * measured from the page load) printed for docs/benchmarks.md. On a 2-core machine the simulator
 * and the scraping of 2,048 nodes use every core, so the times are those of a saturated machine.
 */
class FleetAtScaleBrowserIT {
  private static final int NODES = 2048;

  @Test
  void twoThousandNodesRenderAsAHeatmapWithTheUnhealthyListed() throws Exception {
    try (RunningAppliance bulwark =
        RunningAppliance.demo(
            RunningAppliance.workDir("fleet-at-scale"),
            Map.of("BULWARK_SIM_NODES", Integer.toString(NODES)))) {
      bulwark.awaitUp(Duration.ofSeconds(90));
      ChromeDriver browser = FleetPageBrowserIT.headlessChromium();
      try {
        WebDriverWait wait = FleetPageBrowserIT.logIn(browser, bulwark, Duration.ofSeconds(120));
        // Wait until the inventory holds the whole fleet (asked of the API every second, which
        // costs far less than reloading a 2,048-node page), then load the page afresh to measure.
        bulwark.login();
        long deadline = System.nanoTime() + Duration.ofSeconds(300).toNanos();
        int known = 0;
        while (known < NODES && System.nanoTime() < deadline) {
          java.net.http.HttpResponse<String> r = bulwark.get("/api/v1/nodes");
          Runs.assertAnswered(r, "/api/v1/nodes");
          known =
              r.statusCode() == 200
                  ? new io.vertx.core.json.JsonObject(r.body()).getInteger("count")
                  : 0;
          if (known < NODES) {
            Thread.sleep(1_000);
          }
        }
        assertThat(known).as("nodes in the inventory").isEqualTo(NODES);
        browser.navigate().refresh();
        wait.until(d -> !d.findElement(By.id("fleet-shown")).getText().isEmpty());
        assertThat(browser.findElement(By.id("fleet-shown")).getText()).isEqualTo(NODES + " nodes");
        browser.navigate().refresh();
        wait.until(
            d -> "heatmap".equals(d.findElement(By.id("fleet-grid")).getAttribute("data-view")));
        wait.until(
            d ->
                browser
                    .executeScript(
                        "return performance.getEntriesByName('fleet-interactive').length")
                    .equals(1L));
        long rendered = mark(browser, "fleet-rendered");
        long interactive = mark(browser, "fleet-interactive");
        long elements =
            (Long) browser.executeScript("return document.getElementsByTagName('*').length");
        System.out.printf(
            "fleet page at %d nodes: first render %d ms, interactive %d ms after the page load, %d"
                + " DOM elements%n",
            NODES, rendered, interactive, elements);
        assertThat(elements).as("DOM elements at %d nodes", NODES).isLessThan(5_000);

        // Read in one script: the page redraws the canvas as findings change, and an element
        // found first may be gone by the time its attribute is asked for.
        assertThat(
                browser.executeScript(
                    "return document.querySelector('#fleet-grid canvas.heatmap')"
                        + ".getAttribute('data-nodes');"))
            .isEqualTo(Integer.toString(NODES));
        // The pointer over the first GPU of the first rows' nodes: the status line names node, GPU
        // and state. (The page redraws as findings change, so the events go to the canvas there is
        // in one script; a node whose GPUs were not reported yet has no cells, so points over the
        // whole canvas are tried: on a loaded machine the first rows' nodes may be scraped last.)
        String hovered =
            wait.until(
                d ->
                    (String)
                        browser.executeScript(
                            "const c = document.querySelector('#fleet-grid canvas.heatmap');"
                                + "const r = c.getBoundingClientRect();"
                                + "const s = document.getElementById('heatmap-status');"
                                + "for (let k = 0; k < 400 && !s.textContent; k++) {"
                                + "  c.dispatchEvent(new MouseEvent('mousemove',"
                                + "    {clientX: r.left + 3 + (k % 40) * (r.width - 6) / 40,"
                                + "     clientY: r.top + 3 + Math.floor(k / 40) * (r.height - 6) / 10,"
                                + "     bubbles: true}));"
                                + "}"
                                + "return s.textContent || null;"));
        assertThat(hovered).matches("gpu-node-\\d{4} GPU 0: \\w+.*");

        // The nodes with GPUs that are not healthy (the demo's faults, and on a saturated machine
        // nodes whose scrapes time out) are listed as links under the heatmap, each with the GPUs
        // and their states. (Read in one script: the page redraws as findings change.)
        @SuppressWarnings("unchecked")
        List<String> unhealthy =
            wait.until(
                d -> {
                  List<String> links =
                      (List<String>)
                          browser.executeScript(
                              "return Array.from(document.querySelectorAll("
                                  + "'#unhealthy-list a[data-node]')).map(a => a.textContent);");
                  return links.isEmpty() ? null : links;
                });
        assertThat(unhealthy)
            .allMatch(
                t -> t.matches("gpu-node-\\d{4}: \\d+ (warning|critical|missing|unknown)(, .+)?"));
        // Search narrows the fleet; "unhealthy only" too.
        browser.findElement(By.id("fleet-search")).sendKeys("gpu-node-000");
        wait.until(
            d -> d.findElement(By.id("fleet-shown")).getText().equals("9 of " + NODES + " nodes"));
        wait.until(
            d -> "cells".equals(d.findElement(By.id("fleet-grid")).getAttribute("data-view")));
        assertThat(browser.findElements(By.cssSelector("#fleet-grid .grid-row[data-node]")))
            .hasSize(9);
        // Each GPU a cell named with its node, index and state (how many GPUs each node lists
        // depends on how much of its first pages the series budget of this JVM's heap took).
        // (read in one script: the grid re-renders as findings change)
        @SuppressWarnings("unchecked")
        List<String> labels =
            (List<String>)
                browser.executeScript(
                    "return Array.from(document.querySelectorAll('#fleet-grid .gpu-cell'))"
                        + ".map(c => c.getAttribute('aria-label'));");
        assertThat(labels).isNotEmpty().allMatch(l -> l.matches("gpu-node-000\\d GPU \\d+: .+"));

        Path shots = Path.of(System.getProperty("bulwark.e2e.dir", "target/e2e"));
        Files.createDirectories(shots);
        browser.findElement(By.id("fleet-search")).clear();
        browser.executeScript("document.getElementById('fleet-grid').scrollIntoView()");
        Files.write(
            shots.resolve("fleet-2048.png"),
            ((TakesScreenshot) browser).getScreenshotAs(OutputType.BYTES));

        // The System page says how often the fleet is scraped now, as /metrics does: on this
        // saturated machine telemetry may be shedding load, and then its row says why (after any
        // reason that leads, e.g. the series budget this test's heap allows).
        browser.get(bulwark.baseUrl() + "/#/system");
        String interval =
            wait.until(
                d -> {
                  String text = d.findElement(By.id("scrape-interval")).getText();
                  return text.isEmpty() || text.equals("–") ? null : text;
                });
        String metrics = bulwark.send("GET", "/metrics", null, Duration.ofSeconds(30)).body();
        assertThat(metrics)
            .containsPattern("(?m)^bulwark_telemetry_scrape_interval_seconds \\d")
            .containsPattern("(?m)^bulwark_telemetry_load_shedding [01]$")
            .containsPattern("(?m)^bulwark_engine_evaluation_interval_seconds \\d");
        assertThat(interval).matches("\\d+\\.\\d s(: shedding load \\(configured 1\\.0 s\\))?");
        if (interval.contains("shedding")) {
          assertThat(
                  browser
                      .findElement(By.cssSelector("#subsystem-list tr[data-subsystem='telemetry']"))
                      .getText())
              .containsPattern("shedding load: every target is scraped every \\d+\\.\\d s");
        }
        // Where this test's heap caps the series, the coverage note blames the budget, not the
        // exporters, for the fields it cannot see.
        String telemetryRow =
            browser
                .findElement(By.cssSelector("#subsystem-list tr[data-subsystem='telemetry']"))
                .getText();
        if (telemetryRow.contains("all this heap allows")
            && !browser.findElements(By.cssSelector("#coverage-list tr")).isEmpty()) {
          assertThat(browser.findElement(By.id("coverage-summary")).getText())
              .contains("while its series budget is spent");
        }
        System.out.printf("System page at %d nodes: scrape interval %s%n", NODES, interval);
        Files.write(
            shots.resolve("system-2048.png"),
            ((TakesScreenshot) browser).getScreenshotAs(OutputType.BYTES));
        // Each target says which generation of DCGM names its pages use: the simulated exporters
        // write dcgm-exporter's DCGM 3.x names.
        wait.until(
            d ->
                !d.findElements(By.cssSelector("#target-list td[data-naming='DCGM 3.x']"))
                    .isEmpty());
        browser.executeScript("document.getElementById('target-list').scrollIntoView()");
        Files.write(
            shots.resolve("system-2048-targets.png"),
            ((TakesScreenshot) browser).getScreenshotAs(OutputType.BYTES));
      } finally {
        browser.quit();
      }
    }
  }

  private static long mark(ChromeDriver browser, String name) {
    Object v =
        browser.executeScript(
            "return Math.round(performance.getEntriesByName(arguments[0])[0].startTime)", name);
    return ((Number) v).longValue();
  }
}
