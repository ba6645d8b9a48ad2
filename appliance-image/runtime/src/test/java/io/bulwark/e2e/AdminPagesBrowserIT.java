package io.bulwark.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.Signature;
import java.security.spec.X509EncodedKeySpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The admin pages in a real browser (Debian's headless Chromium through its chromedriver), driven
 * as an administrator would: create a user, issue an API token (its secret shown once), revoke it,
 * find the user's creation in the audit log, verify the audit chain and export the signed log, see
 * the TLS certificate and a refused import; then an auditor, who sees the audit page but not the
 * users page. No page may trip the Content-Security-Policy.
 */
@ExtendWith(SharedAppliance.class)
class AdminPagesBrowserIT {
  /** Users and tokens of this class alone on the shared appliance. */
  private static final String UNIQUE = Long.toString(System.nanoTime(), 36);

  private static final String NEW_USER = "dana-" + UNIQUE;
  private static final String NEW_USER_PASSWORD = "Initial-Passw0rd-Xyz!9";
  private static final String AUDITOR = "audra-" + UNIQUE;
  private static final String TOKEN = "ci-export-" + UNIQUE;
  private static final String AUDITOR_INITIAL = "Audit-Start-Pass-42!";
  private static final String AUDITOR_PASSWORD = "Audit-Changed-Pass-77?";

  /** Records every CSP violation the page reports, before any of its own scripts run. */
  private static final String CSP_RECORDER =
      "window.__cspViolations = [];"
          + "document.addEventListener('securitypolicyviolation', e =>"
          + " window.__cspViolations.push(e.violatedDirective + ' ' + e.blockedURI));";

  @Test
  void anAdminRunsEveryAdminPageAndAnAuditorSeesOnlyTheAudit(
      RunningAppliance bulwark, ChromeDriver browser) throws Exception {
    Path downloads =
        Files.createDirectories(bulwark.dataDir.resolveSibling("downloads-admin-" + UNIQUE));
    Path shots = bulwark.dataDir.getParent();
    HttpClient http = PinnedCertificate.client(bulwark.log);
    List<String> cspViolations = new ArrayList<>();
    try {
      browser.executeCdpCommand(
          "Page.addScriptToEvaluateOnNewDocument", Map.of("source", CSP_RECORDER));
      SharedAppliance.downloadsTo(browser, downloads);
      WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(30));
      wait.ignoring(StaleElementReferenceException.class);

      // Given an admin logged in through the UI, the navigation offers every admin page.
      browser.get(bulwark.baseUrl() + "/");
      logIn(browser, wait, "admin", RunningAppliance.ADMIN_PASSWORD);
      wait.until(d -> d.findElement(By.id("who")).getText().contains("admin (admin)"));
      wait.until(d -> visibleNav(browser).containsAll(List.of("users", "tokens", "tls", "audit")));

      // Users: a password the policy refuses is explained next to the form, then a good one.
      nav(browser, "users");
      wait.until(d -> d.findElement(By.cssSelector("#user-list [data-user='admin']")));
      fill(browser, "user-name", NEW_USER);
      browser.findElement(By.id("user-password")).sendKeys("short");
      browser.findElement(By.id("user-create-submit")).click();
      wait.until(d -> shown(d.findElement(By.id("user-create-error"))));
      assertThat(browser.findElement(By.id("user-create-error")).getText())
          .contains("refused")
          .contains("15");
      assertThat(browser.findElements(By.cssSelector("#user-list [data-user='" + NEW_USER + "']")))
          .isEmpty();
      fill(browser, "user-password", NEW_USER_PASSWORD);
      browser.findElement(By.id("user-create-submit")).click();
      WebElement row =
          wait.until(
              d -> d.findElement(By.cssSelector("#user-list [data-user='" + NEW_USER + "']")));
      assertThat(row.getAttribute("data-role")).isEqualTo("operator");
      assertThat(row.getText()).contains("must change password");
      assertThat(browser.findElement(By.id("user-create-error")).isDisplayed()).isFalse();
      shot(browser, shots.resolve("users-page.png"));

      // API tokens: the secret is shown once, works, is gone after "stored", and revoking it ends
      // it.
      nav(browser, "tokens");
      wait.until(d -> d.findElement(By.id("token-list")));
      browser.findElement(By.id("token-name")).sendKeys(TOKEN);
      new org.openqa.selenium.support.ui.Select(browser.findElement(By.id("token-role")))
          .selectByValue("auditor");
      browser.findElement(By.id("token-submit")).click();
      wait.until(d -> d.findElement(By.id("token-secret-panel")).isDisplayed());
      String secret = browser.findElement(By.id("token-secret")).getAttribute("value");
      assertThat(secret).startsWith("bwk_");
      assertThat(browser.findElement(By.id("token-secret-panel")).getText())
          .contains("You will not see it again");
      WebElement tokenRow =
          wait.until(d -> d.findElement(By.cssSelector("#token-list [data-name='" + TOKEN + "']")));
      assertThat(tokenRow.getAttribute("data-state")).isEqualTo("active");
      assertThat(tokenRow.getText()).contains("auditor").doesNotContain(secret);
      browser.findElement(By.id("token-copy")).click();
      wait.until(d -> !d.findElement(By.id("token-copy-state")).getText().isEmpty());
      shot(browser, shots.resolve("tokens-page.png"));
      assertThat(bearerGet(http, bulwark, secret, "/api/v1/audit/verify").statusCode())
          .isEqualTo(200);
      browser.findElement(By.id("token-secret-done")).click();
      assertThat(browser.findElement(By.id("token-secret-panel")).isDisplayed()).isFalse();
      nav(browser, "users");
      nav(browser, "tokens");
      wait.until(d -> d.findElement(By.cssSelector("#token-list [data-name='" + TOKEN + "']")));
      assertThat(browser.getPageSource()).doesNotContain(secret);
      WebElement revoke =
          browser.findElement(
              By.cssSelector("#token-list [data-name='" + TOKEN + "'] .token-revoke"));
      revoke.click();
      wait.until(d -> revoke.getText().startsWith("Confirm"));
      revoke.click();
      wait.until(
          d ->
              "revoked"
                  .equals(
                      d.findElement(By.cssSelector("#token-list [data-name='" + TOKEN + "']"))
                          .getAttribute("data-state")));
      assertThat(bearerGet(http, bulwark, secret, "/api/v1/audit/verify").statusCode())
          .isEqualTo(401);

      // TLS: the certificate the API reports, and a refused import shown with the API's words.
      JsonObject cert = new JsonObject(bulwark.get("/api/v1/tls/certificate").body());
      nav(browser, "tls");
      wait.until(
          d -> d.findElement(By.id("tls-sha256")).getText().equals(cert.getString("sha256")));
      assertThat(browser.findElement(By.id("tls-subject")).getText())
          .isEqualTo(cert.getString("subject"));
      String badChain =
          "-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydA==\n-----END CERTIFICATE-----\n";
      String badKey = "-----BEGIN PRIVATE KEY-----\nbm90IGEga2V5\n-----END PRIVATE KEY-----\n";
      fill(browser, "tls-chain", badChain);
      fill(browser, "tls-key", badKey);
      browser.findElement(By.id("tls-submit")).click();
      wait.until(d -> shown(d.findElement(By.id("tls-error"))));
      HttpResponse<String> direct =
          bulwark.send(
              "POST",
              bulwark.baseUrl() + "/api/v1/tls/certificate",
              new JsonObject().put("chainPem", badChain).put("keyPem", badKey).encode());
      assertThat(direct.statusCode()).isEqualTo(400);
      assertThat(browser.findElement(By.id("tls-error")).getText())
          .contains(new JsonObject(direct.body()).getString("detail"));
      assertThat(browser.findElement(By.id("tls-sha256")).getText())
          .isEqualTo(cert.getString("sha256"));
      shot(browser, shots.resolve("tls-page.png"));

      // Audit: the user's creation is found, the chain verifies, the export comes signed.
      nav(browser, "audit");
      wait.until(d -> d.findElement(By.cssSelector("#audit-list tbody tr")));
      fill(browser, "audit-action", "user.create");
      browser.findElement(By.id("audit-search")).click();
      List<Map<String, String>> found =
          wait.until(
              d -> {
                List<Map<String, String>> rows = auditRows(browser, "action=user.create");
                return rows.stream().anyMatch(r -> NEW_USER.equals(r.get("target"))) ? rows : null;
              });
      assertThat(found).allSatisfy(r -> assertThat(r.get("action")).isEqualTo("user.create"));
      assertThat(found)
          .filteredOn(r -> NEW_USER.equals(r.get("target")))
          .singleElement()
          .satisfies(
              r -> {
                assertThat(r.get("actor")).isEqualTo("admin");
                assertThat(r.get("outcome")).isEqualTo("success");
              });
      browser.findElement(By.id("audit-verify")).click();
      wait.until(d -> shown(d.findElement(By.id("audit-verify-result"))));
      assertThat(browser.findElement(By.id("audit-verify-result")).getAttribute("data-intact"))
          .isEqualTo("true");
      assertThat(browser.findElement(By.id("audit-verify-result")).getText())
          .contains("Chain intact");
      browser.findElement(By.id("audit-export-jsonl")).click();
      wait.until(d -> shown(d.findElement(By.id("audit-export-result"))));
      String fileName = browser.findElement(By.id("audit-export-file")).getAttribute("download");
      String signature = browser.findElement(By.id("audit-export-signature")).getText().trim();
      assertThat(browser.findElement(By.id("audit-export-sig")).getAttribute("download"))
          .isEqualTo(fileName + ".sig");
      Path exported = downloads.resolve(fileName);
      wait.until(
          d ->
              Files.exists(exported) && !Files.exists(downloads.resolve(fileName + ".crdownload")));
      byte[] content = Files.readAllBytes(exported);
      assertThat(new String(content, java.nio.charset.StandardCharsets.UTF_8))
          .contains("user.create");
      assertThat(signatureValid(bulwark, content, Base64.getDecoder().decode(signature)))
          .as("the detached signature verifies with the audit public key")
          .isTrue();
      shot(browser, shots.resolve("audit-page.png"));
      cspViolations.addAll(cspViolations(browser));

      // An auditor (created through the API) changes the initial password, then sees the audit
      // page but not the users page.
      assertThat(
              bulwark
                  .send(
                      "POST",
                      bulwark.baseUrl() + "/api/v1/users",
                      new JsonObject()
                          .put("name", AUDITOR)
                          .put("role", "auditor")
                          .put("password", AUDITOR_INITIAL)
                          .encode())
                  .statusCode())
          .isEqualTo(201);
      browser.findElement(By.id("logout")).click();
      logIn(browser, wait, AUDITOR, AUDITOR_INITIAL);
      wait.until(d -> d.findElement(By.id("password-form")));
      browser.findElement(By.id("password-current")).sendKeys(AUDITOR_INITIAL);
      browser.findElement(By.id("password-next")).sendKeys(AUDITOR_PASSWORD);
      browser.findElement(By.id("password-submit")).click();
      wait.until(d -> d.findElement(By.id("who")).getText().contains(AUDITOR + " (auditor)"));
      wait.until(d -> visibleNav(browser).contains("audit"));
      assertThat(visibleNav(browser)).contains("audit").doesNotContain("users", "tokens", "tls");
      nav(browser, "audit");
      wait.until(d -> d.findElement(By.id("audit-action")));
      fill(browser, "audit-action", "session.login");
      browser.findElement(By.id("audit-search")).click();
      wait.until(d -> d.findElement(By.cssSelector("#audit-list [data-action='session.login']")));
      browser.get(bulwark.baseUrl() + "/#/users");
      wait.until(d -> d.findElement(By.id("forbidden")));
      assertThat(browser.findElement(By.id("forbidden")).getText()).contains("auditor");
      assertThat(browser.findElements(By.id("user-list"))).isEmpty();
      shot(browser, shots.resolve("auditor-forbidden.png"));
      cspViolations.addAll(cspViolations(browser));
      cspViolations.addAll(consoleCspErrors(browser));

      // The recorder does see a violation: an inline style attribute is refused and reported.
      browser.executeScript(
          "const probe = document.createElement('div');"
              + " probe.setAttribute('style', 'color: red'); document.body.append(probe);");
      wait.until(d -> !cspViolations(browser).isEmpty());
      assertThat(cspViolations(browser)).anySatisfy(v -> assertThat(v).startsWith("style-src"));
    } catch (RuntimeException | AssertionError e) {
      shot(browser, shots.resolve("admin-pages-failure.png"));
      throw e;
    }
    assertThat(cspViolations).as("Content-Security-Policy violations").isEmpty();
  }

  private static void logIn(
      ChromeDriver browser, WebDriverWait wait, String user, String password) {
    wait.until(d -> d.findElement(By.id("login-form")));
    browser.findElement(By.id("login-consent")).click();
    browser.findElement(By.id("login-user")).sendKeys(user);
    browser.findElement(By.id("login-password")).sendKeys(password);
    browser.findElement(By.id("login-submit")).click();
  }

  private static void nav(ChromeDriver browser, String page) {
    browser.findElement(By.cssSelector("#nav a[data-nav='" + page + "']")).click();
    new WebDriverWait(browser, Duration.ofSeconds(10))
        .until(d -> page.equals(d.findElement(By.tagName("body")).getAttribute("data-page")));
  }

  private static void fill(ChromeDriver browser, String id, String text) {
    WebElement field = browser.findElement(By.id(id));
    field.clear();
    field.sendKeys(text);
  }

  private static boolean shown(WebElement e) {
    return e.isDisplayed() && !e.getText().isBlank();
  }

  @SuppressWarnings("unchecked")
  private static List<String> visibleNav(ChromeDriver browser) {
    return (List<String>)
        browser.executeScript(
            "return Array.from(document.querySelectorAll('#nav a'))"
                + ".filter(a => !a.hidden && a.offsetParent !== null).map(a => a.dataset.nav);");
  }

  /**
   * The audit table's rows as shown for a query containing {@code query} (empty until that search
   * has answered), read in one script call so that a re-render cannot interleave.
   */
  @SuppressWarnings("unchecked")
  private static List<Map<String, String>> auditRows(ChromeDriver browser, String query) {
    return (List<Map<String, String>>)
        browser.executeScript(
            "const t = document.getElementById('audit-list');"
                + "if (!t || !t.dataset.query.includes(arguments[0])) return [];"
                + "return Array.from(t.querySelectorAll('tbody tr[data-action]')).map(r =>"
                + " ({action: r.dataset.action, actor: r.dataset.actor, target: r.dataset.target,"
                + " outcome: r.dataset.outcome}));",
            query);
  }

  @SuppressWarnings("unchecked")
  private static List<String> cspViolations(ChromeDriver browser) {
    return (List<String>)
        browser.executeScript(
            "return window.__cspViolations || ['the violation recorder did not run'];");
  }

  /** The browser console's own reports of blocked content, where chromedriver exposes them. */
  private static List<String> consoleCspErrors(ChromeDriver browser) {
    List<String> found = new ArrayList<>();
    try {
      for (LogEntry entry : browser.manage().logs().get(LogType.BROWSER)) {
        if (entry.getMessage().contains("Content Security Policy")) {
          found.add(entry.getMessage());
        }
      }
    } catch (RuntimeException notExposed) {
      // this chromedriver keeps no browser log; the page's own listener covered it
    }
    return found;
  }

  private static HttpResponse<String> bearerGet(
      HttpClient http, RunningAppliance bulwark, String token, String path) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create(bulwark.baseUrl() + path))
            .timeout(Duration.ofSeconds(10))
            .header("Authorization", "Bearer " + token)
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static boolean signatureValid(RunningAppliance bulwark, byte[] content, byte[] signature)
      throws Exception {
    String pem = bulwark.get("/api/v1/audit/public-key").body();
    byte[] der =
        Base64.getMimeDecoder()
            .decode(pem.replaceAll("-----[A-Z ]+-----", "").replaceAll("\\s", ""));
    PublicKey key = KeyFactory.getInstance("EC").generatePublic(new X509EncodedKeySpec(der));
    Signature verifier = Signature.getInstance("SHA384withECDSA");
    verifier.initVerify(key);
    verifier.update(content);
    return verifier.verify(signature);
  }

  private static void shot(ChromeDriver browser, Path file) {
    try {
      Files.write(file, ((TakesScreenshot) browser).getScreenshotAs(OutputType.BYTES));
    } catch (Exception e) {
      System.err.println("could not save the screenshot " + file + ": " + e);
    }
  }
}
