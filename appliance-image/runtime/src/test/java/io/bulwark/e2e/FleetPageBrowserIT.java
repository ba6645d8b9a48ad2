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
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The fleet page in a real browser (Debian's headless Chromium through its chromedriver): the demo
 * fleet's capacity account, the grid of 64 nodes by 8 GPUs coloured by health, and the simulator's
 * faults as open findings.
 */
class FleetPageBrowserIT {

  @Test
  void theFleetPageShowsCapacityTheGridAndTheInjectedFaults() throws Exception {
    try (RunningAppliance bulwark =
        RunningAppliance.demo(RunningAppliance.workDir("browser"), Map.of())) {
      bulwark.awaitUp(Duration.ofSeconds(60));
      ChromeDriver browser = headlessChromium();
      try {
        browser.get(bulwark.baseUrl() + "/");
        WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(90));
        wait.ignoring(StaleElementReferenceException.class);

        // Log in as an admin would: accept the notice, then user and password.
        wait.until(d -> d.findElement(By.id("login-banner")).getText().contains("monitor"));
        browser.findElement(By.id("login-consent")).click();
        browser.findElement(By.id("login-user")).sendKeys("admin");
        browser.findElement(By.id("login-password")).sendKeys(RunningAppliance.ADMIN_PASSWORD);
        browser.findElement(By.id("login-submit")).click();

        wait.until(
            d ->
                d.findElements(By.cssSelector("#fleet-grid [data-node][data-gpu]")).size()
                    == 64 * 8);
        wait.until(
            d ->
                d.findElement(By.id("capacity-summary"))
                    .getText()
                    .matches("(?s).*\\d+ of 512 GPUs serving at \\d+% = \\d+% effective.*"));
        // The demo scenario injects one fault of each kind; each shows as an open finding and a
        // coloured cell.
        // The demo runs without a TPM: the red development-mode banner must be shown.
        wait.until(d -> d.findElement(By.id("dev-banner")).isDisplayed());
        assertThat(browser.findElement(By.id("dev-banner")).getText()).contains("DEVELOPMENT MODE");
        // The page re-renders as live updates arrive: read the findings table in one script call.
        // The demo injects nine faults ten seconds after start; a 10% straggler takes the longest.
        List<String> expected =
            List.of(
                "xid",
                "ecc-dbe",
                "row-remap-failure",
                "thermal-throttle",
                "power-throttle",
                "straggler",
                "gpu-missing",
                "nvlink-errors",
                "pcie-downtrained");
        List<List<String>> findings =
            wait.until(
                d -> {
                  List<List<String>> rows = openFindings(browser);
                  return rows.stream().map(r -> r.get(0)).toList().containsAll(expected)
                      ? rows
                      : null;
                });
        assertThat(findings.stream().map(r -> r.get(0)).distinct()).containsAll(expected);
        List<String> missing =
            findings.stream().filter(r -> r.get(0).equals("gpu-missing")).findFirst().orElseThrow();
        String node = missing.get(1);
        String gpu = missing.get(2);
        By cell = By.cssSelector("#fleet-grid [data-node='" + node + "'][data-gpu='" + gpu + "']");
        wait.until(
            d ->
                List.of("critical", "missing")
                    .contains(d.findElement(cell).getAttribute("data-health")));
        // Cells turn healthy as the first scrapes of every node come in.
        wait.until(
            d ->
                d.findElements(By.cssSelector("#fleet-grid [data-health='healthy']")).size() > 400);
        // The lost capacity, in GPU-hours and money, from the hourly ledger (read when the page
        // loads: reload until the first booked evaluations show).
        for (int i = 0;
            i < 30 && browser.findElements(By.id("gpu-hours-lost-per-day")).isEmpty();
            i++) {
          Thread.sleep(2000);
          browser.navigate().refresh();
          wait.until(d -> !d.findElements(By.cssSelector("#fleet-grid [data-node]")).isEmpty());
        }
        assertThat(browser.findElement(By.id("gpu-hours-lost-per-day")).getText())
            .matches("\\d+(\\.\\d)? GPU-hours lost per day");
        assertThat(browser.findElement(By.id("money-lost-per-day")).getText()).contains("$");
        assertThat(browser.findElements(By.cssSelector("#capacity-loss-chart rect"))).isNotEmpty();
        // The trend of effective capacity, hour by hour, from the hour being booked on.
        wait.until(d -> !d.findElements(By.cssSelector("#capacity-trend-chart svg")).isEmpty());
        Path shot = Path.of(System.getProperty("bulwark.e2e.dir", "target/e2e"), "fleet-page.png");
        Files.write(shot, ((TakesScreenshot) browser).getScreenshotAs(OutputType.BYTES));

        // The node page of the faulty node shows its charts.
        browser.get(bulwark.baseUrl() + "/#/nodes/" + node);
        wait.until(d -> !d.findElements(By.cssSelector("svg")).isEmpty());
        // One chart per metric with every GPU on it, the faulty GPU highlighted; pointing at a
        // chart reads every GPU's value.
        wait.until(d -> d.findElements(By.cssSelector(".metric-chart")).size() == 6);
        wait.until(
            d -> !d.findElements(By.cssSelector(".metric-chart polyline.line-flagged")).isEmpty());
        // The page redraws its charts every few seconds, which resets a readout; point again at
        // the chart drawn last until its readout names the GPUs.
        String readout =
            wait.until(
                d -> {
                  try {
                    org.openqa.selenium.WebElement temp =
                        d.findElement(
                            By.cssSelector(
                                ".metric-chart[data-metric='DCGM_FI_DEV_GPU_TEMP'] svg"));
                    new org.openqa.selenium.interactions.Actions(browser)
                        .moveToElement(temp, -20, 0)
                        .moveToElement(temp)
                        .perform();
                    String text =
                        d.findElement(
                                By.cssSelector(
                                    ".metric-chart[data-metric='DCGM_FI_DEV_GPU_TEMP']"
                                        + " .chart-readout"))
                            .getText();
                    return text.contains("GPU 0:") ? text : null;
                  } catch (org.openqa.selenium.StaleElementReferenceException e) {
                    return null;
                  }
                });
        assertThat(readout).contains("GPU 0:").contains("°C");
        Files.write(
            shot.resolveSibling("node-page.png"),
            ((TakesScreenshot) browser).getScreenshotAs(OutputType.BYTES));
      } finally {
        browser.quit();
      }
    }
  }

  @SuppressWarnings("unchecked")
  private static List<List<String>> openFindings(ChromeDriver browser) {
    return (List<List<String>>)
        browser.executeScript(
            "return Array.from(document.querySelectorAll('#open-findings [data-kind]'))"
                + ".map(e => [e.dataset.kind, e.dataset.node, e.dataset.gpu]);");
  }

  /**
   * Opens the appliance in {@code browser} and logs in as the installer's administrator; returns
   * the wait the test goes on with (stale elements ignored: the pages re-render as events arrive).
   */
  static WebDriverWait logIn(ChromeDriver browser, RunningAppliance bulwark, Duration timeout) {
    browser.get(bulwark.baseUrl() + "/");
    WebDriverWait wait = new WebDriverWait(browser, timeout);
    wait.ignoring(StaleElementReferenceException.class);
    wait.until(d -> d.findElement(By.id("login-form")));
    browser.findElement(By.id("login-consent")).click();
    browser.findElement(By.id("login-user")).sendKeys("admin");
    browser.findElement(By.id("login-password")).sendKeys(RunningAppliance.ADMIN_PASSWORD);
    browser.findElement(By.id("login-submit")).click();
    return wait;
  }

  /**
   * Waits until the page's DOM has not changed for 300 ms (its data fetched and drawn), at most 5 s
   * (a page that redraws on every event is measured as it stands then).
   */
  static void awaitSettled(ChromeDriver browser) {
    browser.executeAsyncScript(
        """
        const done = arguments[arguments.length - 1];
        const observer = new MutationObserver(() => { clearTimeout(quiet); quiet = setTimeout(finish, 300); });
        let quiet = setTimeout(finish, 300);
        const cap = setTimeout(finish, 5000);
        function finish() { observer.disconnect(); clearTimeout(quiet); clearTimeout(cap); done(true); }
        observer.observe(document.documentElement,
            { subtree: true, childList: true, attributes: true, characterData: true });
        """);
  }

  static ChromeDriver headlessChromium() {
    ChromeOptions options = new ChromeOptions();
    options.setBinary("/usr/bin/chromium");
    // The fresh appliance's self-signed certificate; AdminTlsIT checks the TLS listener itself.
    options.setAcceptInsecureCerts(true);
    options.addArguments(
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--window-size=1600,1000");
    ChromeDriverService service =
        new ChromeDriverService.Builder()
            .usingDriverExecutable(Path.of("/usr/bin/chromedriver").toFile())
            .usingAnyFreePort()
            .build();
    return new ChromeDriver(service, options);
  }
}
