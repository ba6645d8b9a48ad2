package io.bulwark.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * An assessor's path through the Compliance page in Debian's Chromium: an auditor logs in, sees the
 * score of each STIG with the counts the API reports, runs the checks, filters the open rules and
 * opens one's evidence, then downloads the CKL, the CKLB and the XCCDF results from the page; the
 * files land in the browser's download folder, parse in STIG Manager's client modules, and each
 * download is in the audit log under the auditor's name. An operator sees the page without the
 * exports.
 */
@ExtendWith(SharedAppliance.class)
class ComplianceBrowserIT {
  /** Users of this class alone on the shared appliance. */
  private static final String UNIQUE = Long.toString(System.nanoTime(), 36);

  private static final String AUDITOR = "assessor-" + UNIQUE;
  private static final String OPERATOR = "night-shift-" + UNIQUE;
  private static final String INITIAL = "Harbour-Initial-Pass-31";
  private static final String PASSWORD = "Lighthouse-Final-Pass-47";

  @Test
  void anAuditorReadsTheScoreFiltersTheRulesAndDownloadsEachChecklist(
      RunningAppliance bulwark, ChromeDriver browser) throws Exception {
    Path downloads =
        Files.createDirectories(bulwark.dataDir.resolveSibling("downloads-compliance-" + UNIQUE));
    Path shots = bulwark.dataDir.getParent();
    for (String[] user : new String[][] {{AUDITOR, "auditor"}, {OPERATOR, "operator"}}) {
      assertThat(
              bulwark
                  .send(
                      "POST",
                      "/api/v1/users",
                      new JsonObject()
                          .put("name", user[0])
                          .put("role", user[1])
                          .put("password", INITIAL)
                          .encode(),
                      Duration.ofSeconds(10))
                  .statusCode())
          .isEqualTo(201);
    }
    try {
      SharedAppliance.downloadsTo(browser, downloads);
      WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(60));
      wait.ignoring(StaleElementReferenceException.class);

      browser.get(bulwark.baseUrl() + "/");
      logInFirstTime(browser, wait, AUDITOR);
      wait.until(d -> d.findElement(By.id("who")).getText().contains(AUDITOR + " (auditor)"));
      browser.get(bulwark.baseUrl() + "/#/compliance");
      wait.until(d -> d.findElement(By.id("compliance-run")).isDisplayed());
      browser.findElement(By.id("compliance-run")).click();
      wait.until(d -> d.findElement(By.id("compliance-run")).isEnabled());
      wait.until(d -> !d.findElements(By.cssSelector("#compliance-list tbody tr")).isEmpty());

      // The score of each STIG says what the API says.
      JsonObject report = new JsonObject(bulwark.get("/api/v1/compliance").body());
      for (Object o : report.getJsonArray("stigs")) {
        JsonObject stig = (JsonObject) o;
        WebElement panel =
            browser.findElement(
                By.cssSelector("#compliance-summary [data-stig='" + stig.getString("id") + "']"));
        for (String status : List.of("NotAFinding", "Open", "Not_Applicable", "Not_Reviewed")) {
          assertThat(panel.findElement(By.cssSelector("[data-status='" + status + "']")).getText())
              .as(stig.getString("id") + " " + status)
              .isEqualTo(String.valueOf(stig.getJsonObject("counts").getInteger(status)));
        }
        assertThat(panel.findElement(By.cssSelector("[data-category='CAT II']")).getText())
            .isEqualTo(String.valueOf(stig.getJsonObject("openByCategory").getInteger("CAT II")));
      }
      shot(browser, shots.resolve("compliance-page.png"));

      // Filtered to the open rules: exactly the API's open rules, the banner among them, with
      // the evidence the check read.
      new Select(browser.findElement(By.id("compliance-status"))).selectByValue("Open");
      int open = report.getJsonObject("counts").getInteger("Open");
      wait.until(
          d ->
              d.findElements(By.cssSelector("#compliance-list tbody tr[data-rule]")).size()
                  == open);
      assertThat(browser.findElements(By.cssSelector("#compliance-list tbody tr[data-rule]")))
          .allSatisfy(r -> assertThat(r.getAttribute("data-status")).isEqualTo("Open"));
      WebElement banner =
          browser.findElement(By.cssSelector("#compliance-list tr[data-rule='APSC-DV-000550']"));
      banner.findElement(By.cssSelector("details summary")).click();
      assertThat(banner.findElement(By.cssSelector("details pre")).getText())
          .contains("setting: io.bulwark.web banner");
      shot(browser, shots.resolve("compliance-open-rules.png"));

      // The downloads: each lands in the browser's folder and reads in STIG Manager's parser.
      for (String[] d :
          new String[][] {
            {"compliance-export-ckl", ".ckl", "ckl"},
            {"compliance-export-cklb", ".cklb", "cklb"},
            {"compliance-export-xccdf-0", "-xccdf.xml", "xccdf"}
          }) {
        browser.findElement(By.id(d[0])).click();
        wait.until(x -> file(downloads, d[1]) != null);
        wait.until(x -> x.findElement(By.id("compliance-export-sig")).isDisplayed());
        Path file = file(downloads, d[1]);
        JsonObject parsed = ComplianceIT.stigManagerParse(d[2], file);
        assertThat(parsed.getJsonArray("checklists")).isNotEmpty();
      }
      shot(browser, shots.resolve("compliance-exported.png"));
      String audit = bulwark.get("/api/v1/audit?action=compliance.export&limit=20").body();
      assertThat(audit.split("\"actor\":\"" + AUDITOR + "\"", -1)).hasSize(4);

      // An operator reads the page but is offered no export.
      browser.findElement(By.id("logout")).click();
      logInFirstTime(browser, wait, OPERATOR);
      wait.until(d -> d.findElement(By.id("who")).getText().contains("(operator)"));
      browser.get(bulwark.baseUrl() + "/#/compliance");
      wait.until(d -> !d.findElements(By.cssSelector("#compliance-list tbody tr")).isEmpty());
      assertThat(browser.findElements(By.id("compliance-export-panel"))).isEmpty();
      assertThat(browser.findElements(By.id("compliance-run"))).isEmpty();
    } catch (RuntimeException | AssertionError e) {
      shot(browser, shots.resolve("compliance-failure.png"));
      throw e;
    }
  }

  private static void logInFirstTime(ChromeDriver browser, WebDriverWait wait, String user) {
    wait.until(d -> d.findElement(By.id("login-form")));
    browser.findElement(By.id("login-consent")).click();
    browser.findElement(By.id("login-user")).sendKeys(user);
    browser.findElement(By.id("login-password")).sendKeys(INITIAL);
    browser.findElement(By.id("login-submit")).click();
    wait.until(d -> d.findElement(By.id("password-form")));
    browser.findElement(By.id("password-current")).sendKeys(INITIAL);
    browser.findElement(By.id("password-next")).sendKeys(PASSWORD);
    browser.findElement(By.id("password-submit")).click();
  }

  /** Returns the finished download whose name ends with {@code suffix}, or null. */
  private static Path file(Path downloads, String suffix) {
    try (Stream<Path> files = Files.list(downloads)) {
      return files
          .filter(p -> p.getFileName().toString().endsWith(suffix))
          .filter(p -> !p.getFileName().toString().endsWith(".crdownload"))
          .findFirst()
          .orElse(null);
    } catch (java.io.IOException e) {
      return null;
    }
  }

  private static void shot(ChromeDriver browser, Path file) {
    try {
      Files.write(file, ((TakesScreenshot) browser).getScreenshotAs(OutputType.BYTES));
    } catch (Exception e) {
      System.err.println("could not save the screenshot " + file + ": " + e);
    }
  }
}
