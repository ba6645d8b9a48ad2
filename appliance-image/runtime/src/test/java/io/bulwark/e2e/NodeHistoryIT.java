package io.bulwark.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.util.zip.CRC32;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Days of history on the node page, also after {@code kill -9}: the roll-up files of 28 past hours
 * lie in the data folder when the appliance starts (written here byte by byte from the format the
 * operations guide and the telemetry bundle document, as an earlier run of the appliance would have
 * left them), the appliance builds its ten-minute history from them, and the 7-day window of a node
 * shows those hours, then the minutes and samples of this run.
 */
class NodeHistoryIT {
  private static final String NODE = "gpu-node-002";
  private static final String TEMP = "DCGM_FI_DEV_GPU_TEMP";
  private static final long HOUR = 3_600_000;
  private static final int GPUS = 8;
  private static final DateTimeFormatter HOUR_NAME =
      DateTimeFormatter.ofPattern("yyyyMMdd-HH").withZone(ZoneOffset.UTC);

  @Test
  void theSevenDayWindowShowsArchivedHoursAfterARestartAndAKill() throws Exception {
    Path work = RunningAppliance.workDir("node-history");
    Path rollups = work.resolve("data").resolve("rollups");
    Files.createDirectories(rollups);
    long nowHour = Math.floorDiv(System.currentTimeMillis(), HOUR);
    long firstHour = nowHour - 30;
    long lastHour = nowHour - 3;
    for (long hour = firstHour; hour <= lastHour; hour++) {
      writeRollupFile(rollups, hour);
    }
    Map<String, String> env = Map.of("BULWARK_SIM_NODES", "4");
    JsonObject first;
    try (RunningAppliance bulwark = RunningAppliance.demo(work, env)) {
      bulwark.awaitUp(Duration.ofSeconds(90));
      // The ten-minute tier is built in the background, one hour per turn, oldest first: the window
      // can start with the first hour before the later ones are built.
      long built = System.nanoTime() + Duration.ofSeconds(90).toNanos();
      while (historyFiles(rollups).size() < 28 && System.nanoTime() < built) {
        Thread.sleep(500);
      }
      assertThat(historyFiles(rollups)).as("one history file per archived hour").hasSize(28);
      first = awaitHistory(bulwark, firstHour * HOUR);
      // kill -9: nothing is closed or flushed.
      bulwark.process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
    try (RunningAppliance bulwark = RunningAppliance.demo(work, env)) {
      bulwark.awaitUp(Duration.ofSeconds(90));
      JsonObject again = awaitHistory(bulwark, firstHour * HOUR);
      assertThat(again.getJsonObject("window").getLong("dataFrom"))
          .isEqualTo(first.getJsonObject("window").getLong("dataFrom"));
      assertThat(historyFiles(rollups)).as("built once, kept").hasSize(28);

      ChromeDriver browser = FleetPageBrowserIT.headlessChromium();
      try {
        WebDriverWait wait = FleetPageBrowserIT.logIn(browser, bulwark, Duration.ofSeconds(60));
        wait.until(d -> d.findElement(By.id("fleet-grid")));
        browser.get(bulwark.baseUrl() + "/#/nodes/" + NODE + "?minutes=10080");
        wait.until(d -> d.findElements(By.cssSelector(".metric-chart")).size() == 6);
        wait.until(
            d ->
                d.findElement(By.id("history-note"))
                    .getText()
                    .contains("Ten-minute averages until"));
        assertThat(browser.findElement(By.id("window-select")).getAttribute("value"))
            .isEqualTo("10080");
        // Point at yesterday on the temperature chart: the readout names the day and every GPU.
        org.openqa.selenium.WebElement temp =
            browser.findElement(By.cssSelector(".metric-chart[data-metric='" + TEMP + "'] svg"));
        browser.executeScript("arguments[0].scrollIntoView({block: 'center'})", temp);
        new org.openqa.selenium.interactions.Actions(browser)
            .moveToElement(temp, (int) (temp.getSize().getWidth() * 0.4), 0)
            .perform();
        String readout =
            browser
                .findElement(
                    By.cssSelector(".metric-chart[data-metric='" + TEMP + "'] .chart-readout"))
                .getText();
        assertThat(readout).matches("\\d\\d-\\d\\d \\d\\d:\\d\\d · GPU 0: 50 · GPU 1: 51 .*");
        Files.write(
            Path.of(System.getProperty("bulwark.e2e.dir", "target/e2e"), "node-page-7d.png"),
            ((TakesScreenshot) browser).getScreenshotAs(OutputType.BYTES));
      } finally {
        browser.quit();
      }
    }
  }

  /**
   * Waits until the node's 7-day window reaches back to {@code fromMillis} in ten-minute averages,
   * then checks what each GPU's temperature shows for the archived hours.
   */
  private static JsonObject awaitHistory(RunningAppliance bulwark, long fromMillis)
      throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
    JsonObject body = null;
    while (System.nanoTime() < deadline) {
      HttpResponse<String> r = bulwark.get("/api/v1/nodes/" + NODE + "?minutes=10080");
      Runs.assertAnswered(r, "/api/v1/nodes/" + NODE);
      if (r.statusCode() == 200) {
        body = new JsonObject(r.body());
        JsonObject w = body.getJsonObject("window");
        if (w.getLong("tenMinutesTo") != null
            && w.getLong("dataFrom") != null
            && w.getLong("dataFrom") <= fromMillis
            && liveOnEveryGpu(body)) {
          break;
        }
      }
      Thread.sleep(1000);
    }
    assertThat(body).as("the node page's data").isNotNull();
    JsonObject w = body.getJsonObject("window");
    assertThat(w.getLong("tenMinutesTo")).as("ten-minute history in %s", w).isNotNull();
    assertThat(w.getLong("dataFrom"))
        .as("the window starts with the first archived hour")
        .isEqualTo(fromMillis);
    JsonArray gpus = body.getJsonArray("gpus");
    assertThat(gpus).hasSize(GPUS);
    long archivedUntil = (Math.floorDiv(System.currentTimeMillis(), HOUR) - 2) * HOUR;
    for (int i = 0; i < gpus.size(); i++) {
      JsonObject gpu = gpus.getJsonObject(i);
      int index = gpu.getInteger("index");
      JsonArray points = gpu.getJsonObject("telemetry").getJsonArray(TEMP);
      assertThat(points.size()).isLessThanOrEqualTo(600);
      List<JsonArray> archived =
          points.stream()
              .map(p -> (JsonArray) p)
              .filter(p -> p.getLong(0) <= archivedUntil)
              .toList();
      // 28 hours of ten-minute buckets in a 7-day window of 600 points (16.8 minutes each).
      assertThat(archived.size()).as("GPU %d's archived points", index).isBetween(95, 170);
      assertThat(archived)
          .as("GPU %d reads what the files hold", index)
          .allSatisfy(p -> assertThat(p.getDouble(1)).isCloseTo(50.0 + index, within(0.01)));
      JsonArray newest = points.getJsonArray(points.size() - 1);
      assertThat(newest.getLong(0))
          .as("then this run's samples")
          .isGreaterThan(System.currentTimeMillis() - 60_000);
    }
    return body;
  }

  /** True once this run's scrapes show on every GPU's temperature (the newest point is recent). */
  private static boolean liveOnEveryGpu(JsonObject body) {
    JsonArray gpus = body.getJsonArray("gpus");
    if (gpus == null || gpus.size() != GPUS) {
      return false;
    }
    for (int i = 0; i < gpus.size(); i++) {
      JsonArray points = gpus.getJsonObject(i).getJsonObject("telemetry").getJsonArray(TEMP);
      if (points == null
          || points.isEmpty()
          || points.getJsonArray(points.size() - 1).getLong(0)
              < System.currentTimeMillis() - 60_000) {
        return false;
      }
    }
    return true;
  }

  private static org.assertj.core.data.Offset<Double> within(double d) {
    return org.assertj.core.data.Offset.offset(d);
  }

  private static List<Path> historyFiles(Path folder) throws IOException {
    try (Stream<Path> listing = Files.list(folder)) {
      return listing.filter(p -> p.getFileName().toString().endsWith(".summary")).toList();
    }
  }

  /**
   * Writes one hour's roll-up file: a header block, one block naming the node's eight GPU
   * temperature series, and one block per minute with min, avg, max and count per series, every
   * block framed as type, length, payload and a CRC-32 over the three, big-endian.
   */
  private static void writeRollupFile(Path folder, long hour) throws IOException {
    String name =
        "rollups-" + HOUR_NAME.format(Instant.ofEpochMilli(hour * HOUR)) + "." + hour + ".rollup";
    try (OutputStream out = Files.newOutputStream(folder.resolve(name))) {
      ByteBuffer header = ByteBuffer.allocate(16);
      header.putInt(0x42575255).putInt(1).putLong(hour * HOUR);
      block(out, 'H', header.array());
      ByteArrayOutputStream series = new ByteArrayOutputStream();
      try (DataOutputStream s = new DataOutputStream(series)) {
        s.writeInt(0);
        s.writeInt(GPUS);
        for (int g = 0; g < GPUS; g++) {
          s.writeShort(g);
          s.writeUTF(NODE);
          s.writeUTF(TEMP);
        }
      }
      block(out, 'S', series.toByteArray());
      for (int m = 0; m < 60; m++) {
        ByteBuffer minute = ByteBuffer.allocate(16 + GPUS * 14);
        minute.putLong(hour * 60 + m).putInt(0).putInt(GPUS);
        for (int g = 0; g < GPUS; g++) {
          minute.putFloat(45 + g).putFloat(50 + g).putFloat(55 + g).putChar((char) 6);
        }
        block(out, 'M', minute.array());
      }
    }
  }

  private static void block(OutputStream out, char type, byte[] payload) throws IOException {
    ByteBuffer head = ByteBuffer.allocate(5);
    head.put((byte) type).putInt(payload.length);
    CRC32 crc = new CRC32();
    crc.update(head.array());
    crc.update(payload);
    out.write(head.array());
    out.write(payload);
    out.write(ByteBuffer.allocate(4).putInt((int) crc.getValue()).array());
  }
}
