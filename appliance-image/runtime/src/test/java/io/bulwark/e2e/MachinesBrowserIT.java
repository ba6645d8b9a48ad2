package io.bulwark.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.bulwark.testing.receivers.TestCertificates;
import io.bulwark.testing.redfish.RedfishMockupServer;
import io.bulwark.testing.redfish.RedfishMockups;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The Machines pages in Chromium: 2,048 machines listed, filtered and sorted; bulk operations ask
 * for a confirmation that lists the machines, and a refusal names the state; a machine whose BMC is
 * the DMTF rack-mount mockup (served as a BMC serves it: a test double, no real BMC runs here) is
 * probed, its certificate shown and pinned by the admin, powered off through the page, and the
 * history shows each step.
 */
class MachinesBrowserIT {
  private static final int MACHINES = 2048;

  /** The demo's own machines: its 4 simulated nodes, each with a simulated Redfish BMC. */
  private static final int DEMO_MACHINES = 4;

  @Test
  void theMachinesPagesListOperateAndFollowABmc() throws Exception {
    Path work = RunningAppliance.workDir("machines-browser");
    TestCertificates tls = TestCertificates.create(work.resolve("bmc-tls"));
    try (RedfishMockupServer bmc =
            RedfishMockupServer.start(
                RedfishMockups.mockup("public-rackmount1"), tls, "root", "calvin-9");
        RunningAppliance bulwark = RunningAppliance.demo(work, Map.of("BULWARK_SIM_NODES", "4"))) {
      bulwark.awaitUp(Duration.ofSeconds(90));
      add(
          bulwark,
          new JsonObject()
              .put("hostname", "dgx-r01")
              .put("rack", "r01")
              .put(
                  "bmc",
                  new JsonObject()
                      .put("address", "127.0.0.1")
                      .put("port", bmc.port())
                      .put("username", "root")
                      .put("password", "calvin-9")));
      for (int i = 1; i < MACHINES - DEMO_MACHINES; i++) {
        add(
            bulwark,
            new JsonObject()
                .put("hostname", String.format("gpu-%04d", i))
                .put("rack", String.format("r%02d", i / 32))
                .put("tags", new JsonArray().add(i % 2 == 0 ? "h100" : "a100")));
      }
      ChromeDriver browser = FleetPageBrowserIT.headlessChromium();
      try {
        WebDriverWait wait = FleetPageBrowserIT.logIn(browser, bulwark, Duration.ofSeconds(60));
        wait.until(d -> d.findElement(By.id("fleet-grid")));
        browser.get(bulwark.baseUrl() + "/#/machines");
        wait.until(
            d ->
                d.findElement(By.id("machines-count"))
                    .getText()
                    .equals(MACHINES + " of " + MACHINES));
        // A page of 200 rows, not 2,048: the filter narrows, "show more" extends.
        assertThat(browser.findElements(By.cssSelector("#machines-table tbody tr"))).hasSize(200);
        Long elements =
            (Long) browser.executeScript("return document.getElementsByTagName('*').length");
        System.out.println(
            "machines page at " + MACHINES + " machines: " + elements + " DOM elements");
        assertThat(elements).isLessThan(5_000);
        browser.findElement(By.id("machines-more")).click();
        wait.until(d -> d.findElements(By.cssSelector("#machines-table tbody tr")).size() == 400);
        Path dir = Path.of(System.getProperty("bulwark.e2e.dir", "target/e2e"));
        browser.executeScript("window.scrollTo(0, 0)");
        Files.write(
            dir.resolve("machines-2048.png"),
            ((TakesScreenshot) browser).getScreenshotAs(OutputType.BYTES));

        // An inventory pasted as CSV: checked, then imported; the list shows the new machines.
        browser
            .findElement(By.id("machines-import-csv"))
            .sendKeys("hostname,rack,tags\nimp-0001,r90,spare\nimp-0002,r90,spare\n");
        browser.findElement(By.id("machines-import-check")).click();
        wait.until(
            d ->
                d.findElement(By.id("machines-import-result"))
                    .getText()
                    .contains("2 machine(s) would be added"));
        browser.findElement(By.id("machines-import-run")).click();
        wait.until(
            d -> d.findElement(By.id("machines-import-result")).getText().startsWith("Added 2"));
        wait.until(
            d ->
                d.findElement(By.id("machines-count"))
                    .getText()
                    .equals((MACHINES + 2) + " of " + (MACHINES + 2)));

        browser.executeScript(
            "arguments[0].scrollIntoView()", browser.findElement(By.id("machines-import-result")));
        Files.write(
            dir.resolve("machines-import.png"),
            ((TakesScreenshot) browser).getScreenshotAs(OutputType.BYTES));

        // A demo machine's row: the GPUs its node reports.
        browser.findElement(By.id("machines-search")).sendKeys("gpu-node-001");
        wait.until(
            d -> d.findElement(By.id("machines-count")).getText().equals("1 of " + (MACHINES + 2)));
        // (the list re-renders on machine events: read the cell inside the wait)
        wait.until(
            d -> {
              try {
                return d
                    .findElements(By.cssSelector("tr[data-machine='gpu-node-001'] td.num"))
                    .stream()
                    .findFirst()
                    .map(c -> c.getText().equals("8"))
                    .orElse(false);
              } catch (org.openqa.selenium.StaleElementReferenceException e) {
                return false;
              }
            });
        browser
            .findElement(By.id("machines-search"))
            .sendKeys(
                org.openqa.selenium.Keys.chord(org.openqa.selenium.Keys.CONTROL, "a"),
                org.openqa.selenium.Keys.BACK_SPACE);
        wait.until(
            d ->
                d.findElement(By.id("machines-count"))
                    .getText()
                    .equals((MACHINES + 2) + " of " + (MACHINES + 2)));

        // Filter by rack, sort by id descending.
        browser.findElement(By.id("machines-search")).sendKeys("r05");
        wait.until(
            d ->
                d.findElement(By.id("machines-count")).getText().equals("32 of " + (MACHINES + 2)));
        // Sorted by id, ascending; one click on the heading turns it around.
        browser.findElement(By.cssSelector("button[data-sort='id']")).click();
        assertThat(
                browser
                    .findElement(By.cssSelector("#machines-table tbody tr"))
                    .getAttribute("data-machine"))
            .isEqualTo("gpu-0191");

        // Bulk: commission two; the confirmation lists them; then a refused one names the state.
        browser
            .findElement(By.cssSelector("tr[data-machine='gpu-0191'] input[type=checkbox]"))
            .click();
        browser
            .findElement(By.cssSelector("tr[data-machine='gpu-0190'] input[type=checkbox]"))
            .click();
        new org.openqa.selenium.support.ui.Select(browser.findElement(By.id("machines-bulk-op")))
            .selectByValue("commission");
        browser.findElement(By.id("machines-bulk")).click();
        assertThat(browser.findElement(By.id("machines-confirm-list")).getText())
            .contains("gpu-0190")
            .contains("gpu-0191");
        browser.findElement(By.id("machines-bulk-confirm")).click();
        wait.until(
            d ->
                d.findElements(By.cssSelector("#machines-results li[data-result='ok']")).size()
                    == 2);
        wait.until(
            d ->
                d.findElement(By.cssSelector("tr[data-machine='gpu-0191'] [data-state]"))
                    .getAttribute("data-state")
                    .equals("commissioning"));
        browser
            .findElement(By.cssSelector("tr[data-machine='gpu-0191'] input[type=checkbox]"))
            .click();
        new org.openqa.selenium.support.ui.Select(browser.findElement(By.id("machines-bulk-op")))
            .selectByValue("mark-fixed");
        browser.findElement(By.id("machines-bulk")).click();
        browser.findElement(By.id("machines-bulk-confirm")).click();
        WebElement refused =
            wait.until(
                d -> d.findElement(By.cssSelector("#machines-results li[data-result='refused']")));
        assertThat(refused.getText()).contains("gpu-0191").contains("Commissioning");

        // The BMC machine: probe, approve the certificate shown, power off.
        browser.get(bulwark.baseUrl() + "/#/machine/dgx-r01");
        wait.until(d -> d.findElement(By.cssSelector("#machine-actions button[data-op='probe']")))
            .click();
        WebElement presented = wait.until(d -> d.findElement(By.id("machine-presented")));
        String fingerprint =
            java.util.HexFormat.of()
                .formatHex(
                    java.security.MessageDigest.getInstance("SHA-256")
                        .digest(tls.serverCertificate().getEncoded()));
        assertThat(presented.getText()).isEqualTo(fingerprint);
        Files.write(
            dir.resolve("machine-certificate.png"),
            ((TakesScreenshot) browser).getScreenshotAs(OutputType.BYTES));
        browser.findElement(By.id("machine-pin")).click();
        browser.findElement(By.id("machine-pin")).click();
        wait.until(d -> d.findElement(By.id("machine-facts")).getText().contains(fingerprint));
        wait.until(d -> d.findElement(By.cssSelector("#machine-actions button[data-op='probe']")))
            .click();
        wait.until(
            d -> "on".equals(d.findElement(By.id("machine-power")).getAttribute("data-power")));
        WebElement off =
            wait.until(
                d -> d.findElement(By.cssSelector("#machine-actions button[data-op='power-off']")));
        off.click();
        off.click();
        wait.until(
            d ->
                !d.findElements(By.cssSelector("#machine-history tr[data-op='power-off done']"))
                    .isEmpty());
        wait.until(
            d -> "off".equals(d.findElement(By.id("machine-power")).getAttribute("data-power")));
        assertThat(bmc.get("/redfish/v1/Systems/437XR1138R2").getString("PowerState"))
            .isEqualTo("Off");
        // The BMC's sensors and event log, read when the certificate was pinned.
        wait.until(
            d ->
                !d.findElements(By.cssSelector("#machine-sensors tr[data-kind='temperature']"))
                    .isEmpty());
        assertThat(browser.findElements(By.cssSelector("#machine-events tbody tr"))).hasSize(2);
        Files.write(
            dir.resolve("machine-page.png"),
            ((TakesScreenshot) browser).getScreenshotAs(OutputType.BYTES));
        browser.executeScript(
            "arguments[0].scrollIntoView()", browser.findElement(By.id("machine-sensors")));
        Files.write(
            dir.resolve("machine-sensors.png"),
            ((TakesScreenshot) browser).getScreenshotAs(OutputType.BYTES));
        // The BMC form offers the Redfish system, for a machine behind an enclosure's BMC.
        browser.executeScript(
            "arguments[0].scrollIntoView()", browser.findElement(By.id("bmc-form")));
        assertThat(browser.findElement(By.cssSelector("label[for='bmc-system']")).getText())
            .isEqualTo("System (when the BMC manages several)");
        Files.write(
            dir.resolve("machine-bmc-form.png"),
            ((TakesScreenshot) browser).getScreenshotAs(OutputType.BYTES));

        // A demo machine: its simulated BMC read since the demo pinned it, sensors drawn over
        // time, the hardware inventory read with the first poll.
        browser.get(bulwark.baseUrl() + "/#/machine/gpu-node-001");
        wait.until(
            d ->
                !d.findElements(
                        By.cssSelector(
                            "#machine-sensor-charts section[data-kind='temperature'] svg"))
                    .isEmpty());
        wait.until(
            d ->
                d.findElements(By.cssSelector("#machine-inventory tr[data-kind='gpu']")).size()
                    == 8);
        assertThat(browser.findElements(By.cssSelector("#machine-inventory tr[data-kind='nic']")))
            .hasSize(2);
        assertThat(browser.findElement(By.id("machine-facts")).getText()).contains("Deployed");
        Files.write(
            dir.resolve("machine-demo.png"),
            ((TakesScreenshot) browser).getScreenshotAs(OutputType.BYTES));
        browser.executeScript(
            "arguments[0].scrollIntoView()", browser.findElement(By.id("machine-sensor-charts")));
        Files.write(
            dir.resolve("machine-demo-charts.png"),
            ((TakesScreenshot) browser).getScreenshotAs(OutputType.BYTES));
        browser.executeScript(
            "arguments[0].scrollIntoView()", browser.findElement(By.id("machine-inventory")));
        Files.write(
            dir.resolve("machine-demo-inventory.png"),
            ((TakesScreenshot) browser).getScreenshotAs(OutputType.BYTES));

        // Deleting asks twice and goes back to the list.
        browser.get(bulwark.baseUrl() + "/#/machine/gpu-0001");
        WebElement delete =
            wait.until(
                d -> d.findElement(By.cssSelector("#machine-actions button[data-op='delete']")));
        delete.click();
        delete.click();
        wait.until(d -> d.getCurrentUrl().endsWith("#/machines"));
        assertThat(bulwark.get("/api/v1/machines/gpu-0001").statusCode()).isEqualTo(404);
      } finally {
        browser.quit();
      }
    }
  }

  private static void add(RunningAppliance bulwark, JsonObject body) throws Exception {
    HttpResponse<String> r =
        bulwark.send("POST", bulwark.baseUrl() + "/api/v1/machines", body.encode());
    assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
  }
}
