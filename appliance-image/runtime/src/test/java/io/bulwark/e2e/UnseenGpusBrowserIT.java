package io.bulwark.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * What Bulwark cannot see is never shown healthy, in a real browser against a hand-written file_sd:
 * one exporter serves only a few fields (the detectors that read others are named, with the fields,
 * on the System page), one target never answers, and one exporter answers and then stops (its GPUs
 * turn unknown, in their own colour, and the headline counts them with the targets not answering).
 *
 * <p>The two exporters are small HTTP servers started by the test that serve dcgm-exporter's text
 * format: a real dcgm-exporter needs NVIDIA GPUs, which this machine does not have.
 */
class UnseenGpusBrowserIT {

  private static String page(String node, int gpus) {
    StringBuilder page = new StringBuilder();
    for (String[] metric :
        new String[][] {
          {"DCGM_FI_DEV_GPU_TEMP", "55"},
          {"DCGM_FI_DEV_SM_CLOCK", "1980"},
          {"DCGM_FI_DEV_GPU_UTIL", "90"},
          {"DCGM_FI_DEV_POWER_USAGE", "400.000000"}
        }) {
      page.append("# HELP ").append(metric[0]).append(" test field\n");
      page.append("# TYPE ").append(metric[0]).append(" gauge\n");
      for (int g = 0; g < gpus; g++) {
        page.append(metric[0])
            .append("{gpu=\"")
            .append(g)
            .append("\",UUID=\"GPU-")
            .append(node)
            .append('-')
            .append(g)
            .append("\",device=\"nvidia")
            .append(g)
            .append("\",modelName=\"NVIDIA H100 80GB HBM3\",Hostname=\"")
            .append(node)
            .append("\"} ")
            .append(metric[1])
            .append('\n');
      }
    }
    return page.toString();
  }

  private static HttpServer exporter(String node, int gpus) throws Exception {
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    byte[] body = page(node, gpus).getBytes(StandardCharsets.UTF_8);
    server.createContext(
        "/metrics",
        exchange -> {
          exchange.getResponseHeaders().set("Content-Type", "text/plain; version=0.0.4");
          exchange.sendResponseHeaders(200, body.length);
          exchange.getResponseBody().write(body);
          exchange.close();
        });
    server.start();
    return server;
  }

  private static int closedPort() throws Exception {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  @Test
  void targetsNotAnsweringAndFieldsNotServedAreShownNotHidden() throws Exception {
    Path work = RunningAppliance.workDir("unseen");
    HttpServer partial = exporter("gpu-partial", 4);
    HttpServer leaving = exporter("gpu-leaving", 2);
    try {
      Files.createDirectories(work);
      Path targets = work.resolve("targets.json");
      Files.writeString(
          targets,
          "[{\"targets\":[\"127.0.0.1:"
              + partial.getAddress().getPort()
              + "\",\"127.0.0.1:"
              + leaving.getAddress().getPort()
              + "\",\"127.0.0.1:"
              + closedPort()
              + "\"],\"labels\":{\"rack\":\"r1\"}}]");
      try (RunningAppliance bulwark =
          RunningAppliance.demo(work, Map.of("BULWARK_FILE_SD", targets.toString()))) {
        bulwark.awaitUp(Duration.ofSeconds(60));
        ChromeDriver browser = FleetPageBrowserIT.headlessChromium();
        try {
          WebDriverWait wait = FleetPageBrowserIT.logIn(browser, bulwark, Duration.ofSeconds(60));

          // Both exporters report; the third target never answers.
          wait.until(
              d -> d.findElements(By.cssSelector("#fleet-grid [data-node][data-gpu]")).size() == 6);
          wait.until(
              d ->
                  d.findElement(By.id("capacity-summary"))
                      .getText()
                      .contains("1 target not answering"));

          // The exporter of gpu-leaving stops: its GPUs are unknown, never healthy.
          leaving.stop(0);
          wait.until(
              d ->
                  d.findElements(
                              By.cssSelector(
                                  "#fleet-grid [data-node='gpu-leaving'][data-health='unknown']"))
                          .size()
                      == 2);
          wait.until(
              d ->
                  d.findElement(By.id("capacity-summary"))
                      .getText()
                      .contains("2 GPUs unknown (2 targets not answering)"));
          String summary = browser.findElement(By.id("capacity-summary")).getText();
          assertThat(summary).startsWith("4 of 6 GPUs serving").contains("GPUs partly seen");
          assertThat(
                  browser
                      .findElement(By.cssSelector("#capacity-stats [data-stat='unknown']"))
                      .getText())
              .contains("2");
          assertThat(
                  browser.findElements(
                      By.cssSelector(
                          "#fleet-grid [data-node='gpu-partial'][data-health='healthy']")))
              .hasSize(4);
          Path shots = Path.of(System.getProperty("bulwark.e2e.dir", "target/e2e"));
          Files.createDirectories(shots);
          Files.write(
              shots.resolve("fleet-unseen.png"),
              ((TakesScreenshot) browser).getScreenshotAs(OutputType.BYTES));

          // The System page names the detectors the partial exporter leaves blind, with fields.
          browser.findElement(By.cssSelector("#nav a[data-nav='system']")).click();
          wait.until(
              d -> !d.findElements(By.cssSelector("#coverage-list tr[data-detector]")).isEmpty());
          String coverage = browser.findElement(By.id("coverage")).getText();
          assertThat(coverage)
              .contains("xid")
              .contains("DCGM_FI_DEV_XID_ERRORS")
              .contains("ecc-dbe")
              .contains("DCGM_FI_DEV_ECC_DBE_VOL_TOTAL")
              .contains("gpu-partial");
          wait.until(
              d ->
                  d.findElement(By.id("coverage-summary"))
                      .getText()
                      .contains("(4 GPUs) lack fields"));
          Files.write(
              shots.resolve("system-coverage.png"),
              ((TakesScreenshot) browser).getScreenshotAs(OutputType.BYTES));
        } finally {
          browser.quit();
        }
      }
    } finally {
      partial.stop(0);
      leaving.stop(0);
    }
  }
}
