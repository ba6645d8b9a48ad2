package io.bulwark.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.Keys;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Accessibility basics in a real browser: a skip link that moves focus to the page, one {@code h1}
 * on every page, text of at least 4.5:1 contrast on every badge and notice shown (light and dark
 * wall mode, measured from the computed colours), and no sideways scrolling of the page at 400 px
 * wide.
 */
@ExtendWith(SharedAppliance.class)
class AccessibilityBrowserIT {
  private static final List<String> PAGES =
      List.of(
          "fleet",
          "findings",
          "maintenance",
          "system",
          "alerts",
          "users",
          "tokens",
          "tls",
          "audit");

  /** WCAG 2 contrast of the text of every visible badge-like element against its background. */
  private static final String CONTRAST =
      """
      function lum(c) {
        const m = c.match(/rgba?\\(([^)]+)\\)/); if (!m) return null;
        const p = m[1].split(',').map(Number);
        if (p.length > 3 && p[3] === 0) return null;
        const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
        return 0.2126 * f(p[0]) + 0.7152 * f(p[1]) + 0.0722 * f(p[2]);
      }
      function background(el) {
        for (let e = el; e; e = e.parentElement) {
          const b = getComputedStyle(e).backgroundColor;
          if (lum(b) !== null) return b;
        }
        return 'rgb(255,255,255)';
      }
      const out = [];
      for (const el of document.querySelectorAll('.badge, .sev, .state, .notice, .live, .dev-banner, .gpu-cell')) {
        if (!el.offsetParent || !el.textContent.trim()) continue;
        // A patterned background (missing, unknown) has no single colour to measure against.
        if (getComputedStyle(el).backgroundImage !== 'none') continue;
        const fg = lum(getComputedStyle(el).color), bg = lum(background(el));
        const ratio = (Math.max(fg, bg) + 0.05) / (Math.min(fg, bg) + 0.05);
        if (ratio < 4.5) out.push(`${el.className} "${el.textContent.trim().slice(0, 30)}": ${ratio.toFixed(2)}`);
      }
      return out;
      """;

  @Test
  void pagesHaveASkipLinkOneHeadingReadableBadgesAndFitAt400Pixels(
      RunningAppliance bulwark, ChromeDriver browser) throws Exception {
    // An XID, so that the pages show a critical badge; cleared at the end.
    var fault =
        bulwark.send(
            "POST",
            bulwark.simUrl("/sim/faults"),
            new JsonObject()
                .put("kind", "xid")
                .put("node", SharedAppliance.node(20))
                .put("gpu", 1)
                .encode());
    assertThat(fault.statusCode()).as(fault.body()).isEqualTo(201);
    Path shots = Path.of(System.getProperty("bulwark.e2e.dir", "target/e2e"));
    Files.createDirectories(shots);
    try {
      WebDriverWait wait = FleetPageBrowserIT.logIn(browser, bulwark, Duration.ofSeconds(60));
      wait.until(d -> !d.findElements(By.cssSelector("#fleet-grid [data-node]")).isEmpty());

      // The skip link is the first thing the keyboard reaches and moves focus to the page.
      browser.navigate().refresh();
      wait.until(d -> !d.findElements(By.cssSelector("#fleet-grid [data-node]")).isEmpty());
      new org.openqa.selenium.interactions.Actions(browser).sendKeys(Keys.TAB).perform();
      assertThat(browser.switchTo().activeElement().getAttribute("id")).isEqualTo("skip-link");
      new org.openqa.selenium.interactions.Actions(browser).sendKeys(Keys.ENTER).perform();
      assertThat(browser.switchTo().activeElement().getAttribute("id")).isEqualTo("view");
      assertThat(browser.findElement(By.id("view")).getAttribute("aria-live")).isNull();

      for (String theme : List.of("light", "dark")) {
        if (theme.equals("dark")) {
          browser.findElement(By.id("theme-toggle")).click();
          assertThat(browser.findElement(By.tagName("html")).getAttribute("data-theme"))
              .isEqualTo("dark");
        }
        for (String page : PAGES) {
          browser.get(bulwark.baseUrl() + "/#/" + page);
          wait.until(d -> d.findElements(By.cssSelector("#view h1")).size() == 1);
          FleetPageBrowserIT.awaitSettled(browser);
          @SuppressWarnings("unchecked")
          List<String> low = (List<String>) browser.executeScript(CONTRAST);
          assertThat(low).as("text under 4.5:1 on %s (%s)", page, theme).isEmpty();
        }
      }
      browser.get(bulwark.baseUrl() + "/#/fleet");
      wait.until(d -> !d.findElements(By.cssSelector("#fleet-grid [data-node]")).isEmpty());
      Files.write(
          shots.resolve("fleet-wall-mode.png"),
          ((TakesScreenshot) browser).getScreenshotAs(OutputType.BYTES));
      browser.findElement(By.id("theme-toggle")).click();

      // 400 px wide: the page itself never scrolls sideways (wide tables scroll in their panel).
      browser.manage().window().setSize(new Dimension(400, 900));
      for (String page : PAGES) {
        browser.get(bulwark.baseUrl() + "/#/" + page);
        wait.until(d -> d.findElements(By.cssSelector("#view h1")).size() == 1);
        FleetPageBrowserIT.awaitSettled(browser);
        Number width =
            (Number) browser.executeScript("return document.documentElement.scrollWidth");
        Number viewport = (Number) browser.executeScript("return window.innerWidth");
        assertThat(width.intValue())
            .as("page width of %s at 400 px", page)
            .isLessThanOrEqualTo(viewport.intValue());
        if (page.equals("fleet") || page.equals("findings")) {
          Files.write(
              shots.resolve(page + "-400px.png"),
              ((TakesScreenshot) browser).getScreenshotAs(OutputType.BYTES));
        }
      }
    } finally {
      browser.manage().window().setSize(new Dimension(1600, 1000));
      bulwark.send(
          "DELETE",
          bulwark.simUrl("/sim/faults/" + new JsonObject(fault.body()).getString("id")),
          null);
    }
  }
}
