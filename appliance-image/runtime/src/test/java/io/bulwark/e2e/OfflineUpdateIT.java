package io.bulwark.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarInputStream;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipInputStream;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;

/**
 * Offline updates end to end, as a secure-site admin carries them across the air gap: packages made
 * and signed by the release engineer's tool ({@code UpdateTool pack}, in its own JVM, with keys it
 * generated) are written to a real FAT32 filesystem image (mkfs.vfat, mcopy), which is mounted
 * read-only at the appliance's update-stick mount point with fusefat (a loop mount needs the
 * kernel's vfat, which a container may lack; FUSE reads the same FAT32 bytes). Without FUSE the
 * stick is a plain folder and the test says so. The running demo appliance installs a good package
 * live, while its fleet is scraped and its admin plane answers every request; refuses a flipped
 * byte, a foreign key, a missing signature, a path escape, an archive bomb, a downgrade, an
 * unresolvable bundle set and a revoked key, each with its reason; rolls back a bundle whose
 * activator throws, the old set serving again; rolls back by hand; restores the old set after
 * {@code kill -9} in the middle of a swap; and refuses a package whose stick is pulled mid-copy.
 */
class OfflineUpdateIT {
  private static final String SYSLOG = "bulwark.notify.syslog";

  /** A plugin no role runs, brought in a package's plugins/ folder. */
  private static final String EXTRA = "bulwark.example.plugin";

  /** A scheduler connector the demo runs, removed and installed again as an optional plugin. */
  private static final String PLUGIN = "bulwark.scheduler.pbs";

  @Test
  void packagesFromAStickInstallLiveOrAreRefusedOrRolledBack() throws Exception {
    Path work = RunningAppliance.workDir("offline-update");
    Path signing = Files.createDirectories(work.resolve("signing"));
    Path trust = Files.createDirectories(work.resolve("data").resolve("keys"));
    Map<String, String[]> ids = new LinkedHashMap<>();
    for (String name : List.of("release", "old", "foreign")) {
      // Height 5: each key signs at most 32 packages, which is plenty here, and each signature
      // recomputes a tree of 32 leaves instead of the default 32,768 (8 s a JVM on 2 cores).
      String out = tool("keygen", name, signing.toString(), "--height=5");
      // "keys of NAME: ECDSA <id>, LMS <id>"
      String[] words = out.strip().split("[ ,]+");
      ids.put(name, new String[] {words[4], words[6]});
    }
    for (String name : List.of("release", "old")) {
      for (String kind : List.of("ecdsa", "lms")) {
        Files.copy(
            signing.resolve(name + "." + kind + ".pem"), trust.resolve(name + "." + kind + ".pem"));
      }
    }

    // The bundles: the demo's own syslog channel, rebuilt at new versions.
    byte[] base = embedded(SYSLOG);
    Path jars = Files.createDirectories(work.resolve("jars"));
    Path good = write(jars.resolve("good.jar"), rebuild(base, "0.1.1", Map.of(), Map.of()));
    Path unresolvable =
        write(
            jars.resolve("unresolvable.jar"),
            rebuild(
                base,
                "0.1.2",
                Map.of("Import-Package", "+io.bulwark.nonexistent;version=\"[1.0,2)\""),
                Map.of()));
    Path throwing =
        write(
            jars.resolve("throwing.jar"),
            rebuild(
                base,
                "0.1.3",
                Map.of(
                    "Bundle-Activator",
                    ThrowingActivator.class.getName(),
                    "Import-Package",
                    "+org.osgi.framework"),
                classFile(ThrowingActivator.class)));
    Path slow =
        write(
            jars.resolve("slow.jar"),
            rebuild(
                base,
                "0.1.4",
                Map.of(
                    "Bundle-Activator",
                    SlowActivator.class.getName(),
                    "Import-Package",
                    "+org.osgi.framework"),
                classFile(SlowActivator.class)));

    // The packages.
    Path pkgs = Files.createDirectories(work.resolve("packages"));
    Path goodPkg =
        pack(
            pkgs,
            "good-0.2.0",
            "0.2.0",
            "[0.1,1)",
            "release",
            "bundles/" + SYSLOG + ".jar=" + good);
    Files.write(
        pkgs.resolve("flipped-byte.bwu"),
        flipInEntry(Files.readAllBytes(goodPkg), "bundles/" + SYSLOG + ".jar"));
    pack(pkgs, "foreign-key", "0.2.0", "[0.1,1)", "foreign", "bundles/" + SYSLOG + ".jar=" + good);
    Files.write(
        pkgs.resolve("one-signature.bwu"),
        without(Files.readAllBytes(goodPkg), "manifest.json.lms.p7s"));
    Files.write(
        pkgs.resolve("path-escape.bwu"),
        withEntry(
            Files.readAllBytes(goodPkg),
            "bundles/../../../etc/cron.d/escape",
            "* * * * * root id\n".getBytes(StandardCharsets.UTF_8)));
    Path zeros = write(work.resolve("zeros.img"), new byte[1 << 20]);
    Path bombBase =
        pack(pkgs, "bomb-base", "0.2.0", "[0.1,1)", "release", "images/zeros.img=" + zeros);
    Files.write(
        pkgs.resolve("archive-bomb.bwu"),
        inflated(Files.readAllBytes(bombBase), "images/zeros.img", 1L << 30));
    Files.delete(bombBase);
    pack(
        pkgs,
        "downgrade-0.1.5",
        "0.1.5",
        "[0.1,1)",
        "release",
        "bundles/" + SYSLOG + ".jar=" + good);
    pack(
        pkgs,
        "unresolvable-0.2.1",
        "0.2.1",
        "[0.2,1)",
        "release",
        "bundles/" + SYSLOG + ".jar=" + unresolvable);
    pack(
        pkgs,
        "throwing-0.3.0",
        "0.3.0",
        "[0.2,1)",
        "release",
        "bundles/" + SYSLOG + ".jar=" + throwing);
    pack(
        pkgs,
        "revoking-0.2.2",
        "0.2.2",
        "[0.2,1)",
        "release",
        "--revoke=" + ids.get("old")[0],
        "--revoke=" + ids.get("old")[1],
        "bundles/" + SYSLOG + ".jar=" + good,
        "plugins/"
            + EXTRA
            + ".jar="
            + write(jars.resolve("extra.jar"), emptyBundle(EXTRA, "1.0.0")));
    pack(pkgs, "old-0.2.3", "0.2.3", "[0.2,1)", "old", "bundles/" + SYSLOG + ".jar=" + good);
    pack(pkgs, "slow-0.4.0", "0.4.0", "[0.2,1)", "release", "bundles/" + SYSLOG + ".jar=" + slow);
    Path noise = work.resolve("noise.img");
    try (OutputStream out = Files.newOutputStream(noise)) {
      Random r = new Random(7);
      byte[] buf = new byte[1 << 20];
      for (int i = 0; i < 300; i++) {
        r.nextBytes(buf);
        out.write(buf);
      }
    }
    pack(pkgs, "big-0.5.0", "0.5.0", "[0.2,1)", "release", "images/noise.img=" + noise);
    Files.delete(noise);
    Path uploads = Files.createDirectories(work.resolve("uploads"));
    Path uploadPkg =
        pack(
            uploads,
            "upload-0.2.5",
            "0.2.5",
            "[0.2,1)",
            "release",
            "bundles/" + SYSLOG + ".jar=" + good);

    Path mount = Files.createDirectories(work.resolve("stick"));
    try (Stick stick = Stick.of(work.resolve("stick.img"), mount, pkgs);
        RunningAppliance bulwark =
            RunningAppliance.demo(
                work,
                Map.of("BULWARK_SIM_NODES", "8", "BULWARK_UPDATES_WATCH", mount.toString()))) {
      bulwark.awaitUp(Duration.ofSeconds(120));
      JsonObject status =
          awaitStatus(
              bulwark,
              s ->
                  s.getJsonObject("job") == null
                      || "done".equals(s.getJsonObject("job").getString("phase")));
      assertThat(status.getString("version")).isEqualTo("0.1.0");
      assertThat(status.getJsonObject("stick").getBoolean("present")).isTrue();
      assertThat(status.getJsonObject("stick").getJsonArray("packages").size()).isEqualTo(13);
      assertThat(bundle(status, SYSLOG).getString("origin")).isEqualTo("image");

      // Refused before anything is touched, each with its reason.
      assertRefused(bulwark, "flipped-byte.bwu", "SHA-384");
      assertRefused(bulwark, "foreign-key.bwu", "trusted");
      assertRefused(bulwark, "one-signature.bwu", "LMS");
      assertRefused(bulwark, "path-escape.bwu", "leaves its folder");
      assertRefused(bulwark, "archive-bomb.bwu", "archive bomb");

      // A good package installs live: the fleet keeps being scraped, the admin plane keeps
      // answering.
      Watch watch = Watch.start(bulwark);
      watch.await(w -> w.answered.get() >= 10, "10 answers before the install");
      JsonObject installed = install(bulwark, "good-0.2.0.bwu", false);
      int scrapesAtInstall = watch.scrapes.size();
      watch.await(
          w -> w.answered.get() > 20 && w.scrapes.size() > Math.max(16, scrapesAtInstall + 8),
          "scrapes after the install");
      Watch.Result seen = watch.stop();
      assertThat(installed.getString("outcome"))
          .as(installed.encodePrettily())
          .isEqualTo("installed");
      assertThat(installed.getJsonArray("changed").getList()).containsExactly(SYSLOG);
      assertThat(installed.getString("ecdsaSigner")).isEqualTo("release");
      assertThat(seen.refused()).as("requests refused during the swap").isZero();
      assertThat(seen.answered()).isGreaterThan(20);
      assertThat(seen.scrapesAdvanced()).as("the fleet was scraped during the install").isTrue();
      status = status(bulwark);
      assertThat(status.getString("version")).isEqualTo("0.2.0");
      assertThat(bundle(status, SYSLOG).getString("version")).isEqualTo("0.1.1");
      assertThat(bundle(status, SYSLOG).getString("state")).isEqualTo("active");
      assertThat(bundle(status, SYSLOG).getString("origin")).isEqualTo("update");
      assertThat(bulwark.dataDir.resolve("offline-repo").resolve("index.xml")).exists();
      assertThat(Files.readString(bulwark.dataDir.resolve("offline-repo").resolve("index.xml")))
          .contains("value=\"" + SYSLOG + "\"");
      System.out.println(
          "offline-update: good package ("
              + installed.getLong("packageBytes")
              + " bytes) timings "
              + installed.getJsonObject("timings")
              + "; "
              + seen.answered()
              + " requests during it, "
              + seen.refused()
              + " refused");

      // A manual rollback brings the image's bundle back; the package installs again.
      HttpResponse<String> back =
          bulwark.send("POST", bulwark.baseUrl() + "/api/v1/updates/rollback", "{}");
      assertThat(back.statusCode()).as(back.body()).isEqualTo(202);
      JsonObject rolled = awaitEntry(bulwark, new JsonObject(back.body()).getString("id"));
      assertThat(rolled.getString("outcome")).as(rolled.encodePrettily()).isEqualTo("rolled-back");
      status = status(bulwark);
      assertThat(status.getString("version")).isEqualTo("0.1.0");
      assertThat(bundle(status, SYSLOG).getString("version")).isEqualTo(embeddedVersion(base));
      assertThat(bundle(status, SYSLOG).getString("state")).isEqualTo("active");
      assertThat(install(bulwark, "good-0.2.0.bwu", false).getString("outcome"))
          .isEqualTo("installed");

      assertRefused(bulwark, "downgrade-0.1.5.bwu", "downgrade");
      JsonObject unresolved = assertRefused(bulwark, "unresolvable-0.2.1.bwu", "does not resolve");
      assertThat(unresolved.getString("reason")).contains("io.bulwark.nonexistent");

      // A bundle whose activator throws: rolled back, the old set serving again.
      JsonObject broken = install(bulwark, "throwing-0.3.0.bwu", false);
      assertThat(broken.getString("outcome")).as(broken.encodePrettily()).isEqualTo("rolled-back");
      assertThat(broken.getString("reason"))
          .contains("broken on purpose")
          .contains("rolled back to 0.2.0");
      status = status(bulwark);
      assertThat(status.getString("version")).isEqualTo("0.2.0");
      assertThat(bundle(status, SYSLOG).getString("version")).isEqualTo("0.1.1");
      assertThat(bundle(status, SYSLOG).getString("state")).isEqualTo("active");

      // A package that revokes a key; then one signed by it is refused.
      JsonObject revoking = install(bulwark, "revoking-0.2.2.bwu", false);
      assertThat(revoking.getString("outcome")).isEqualTo("installed");
      assertRefused(bulwark, "old-0.2.3.bwu", "revoked");
      // Its plugins/ bundle is only offered; installed from the repository, then removed.
      assertThat(revoking.getJsonArray("offered").getList()).containsExactly(EXTRA);
      assertThat(revoking.getJsonArray("changed").getList())
          .as("its syslog bundle is the one running")
          .isEmpty();
      assertThat(plugin(plugins(bulwark), "offered", EXTRA).getString("origin"))
          .isEqualTo("offline repository");
      for (String action : List.of("install", "remove")) {
        HttpResponse<String> r =
            bulwark.send(
                "POST",
                bulwark.baseUrl() + "/api/v1/updates/plugins/" + EXTRA + "/" + action,
                "{}");
        assertThat(r.statusCode()).as(r.body()).isEqualTo(202);
        JsonObject done = awaitEntry(bulwark, new JsonObject(r.body()).getString("id"));
        assertThat(done.getString("outcome")).as(done.encodePrettily()).isEqualTo("installed");
        if (action.equals("install")) {
          assertThat(bundle(status(bulwark), EXTRA).getString("state")).isEqualTo("active");
          assertThat(bundle(status(bulwark), EXTRA).getString("origin")).isEqualTo("update");
        }
      }
      assertThat(status(bulwark).getJsonArray("bundles").encode()).doesNotContain(EXTRA);

      // An optional plugin is removed live through the same swap; the updater cannot be.
      JsonObject plugins = plugins(bulwark);
      assertThat(plugin(plugins, "running", PLUGIN).getBoolean("removable")).isTrue();
      assertThat(plugin(plugins, "running", PLUGIN).getString("plugin"))
          .isEqualTo("scheduler connector");
      assertThat(plugin(plugins, "running", "bulwark.updates").getString("why"))
          .isEqualTo("it is the updater itself");
      assertThat(plugin(plugins, "running", "bulwark.machines").getString("why"))
          .isEqualTo("it is part of the appliance, not an optional plugin");
      HttpResponse<String> refusedRemoval =
          bulwark.send(
              "POST", bulwark.baseUrl() + "/api/v1/updates/plugins/bulwark.updates/remove", "{}");
      assertThat(refusedRemoval.statusCode()).as(refusedRemoval.body()).isEqualTo(409);
      HttpResponse<String> removal =
          bulwark.send(
              "POST", bulwark.baseUrl() + "/api/v1/updates/plugins/" + PLUGIN + "/remove", "{}");
      assertThat(removal.statusCode()).as(removal.body()).isEqualTo(202);
      JsonObject removed = awaitEntry(bulwark, new JsonObject(removal.body()).getString("id"));
      assertThat(removed.getString("outcome")).as(removed.encodePrettily()).isEqualTo("installed");
      assertThat(removed.getString("reason")).contains("was removed");
      assertThat(status(bulwark).getJsonArray("bundles").encode()).doesNotContain(PLUGIN);
      assertThat(plugin(plugins(bulwark), "offered", PLUGIN).getString("origin"))
          .isEqualTo("image");

      // kill -9 in the middle of a swap: the next start restores the old set.
      HttpResponse<String> started =
          bulwark.send(
              "POST", bulwark.baseUrl() + "/api/v1/updates/stick/slow-0.4.0.bwu/install", "{}");
      assertThat(started.statusCode()).as(started.body()).isEqualTo(202);
      awaitStatus(
          bulwark,
          s ->
              s.getJsonObject("job") != null
                  && "installing".equals(s.getJsonObject("job").getString("phase")));
      // The journal is written just before the swap, whose new bundle takes 8 s to start.
      awaitJournal(bulwark.dataDir);
      bulwark.process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
    try (Stick stick = Stick.of(work.resolve("stick.img"), mount, null);
        RunningAppliance bulwark =
            RunningAppliance.demo(
                work,
                Map.of("BULWARK_SIM_NODES", "8", "BULWARK_UPDATES_WATCH", mount.toString()))) {
      bulwark.awaitUp(Duration.ofSeconds(180));
      JsonObject status =
          awaitStatus(
              bulwark,
              s ->
                  s.getJsonObject("job") == null
                      || "done".equals(s.getJsonObject("job").getString("phase")));
      assertThat(status.getString("version")).isEqualTo("0.2.2");
      assertThat(bundle(status, SYSLOG).getString("version")).isEqualTo("0.1.1");
      JsonObject recovered = history(bulwark).get(0);
      assertThat(recovered.getString("outcome")).isEqualTo("rolled-back");
      assertThat(recovered.getString("reason")).contains("stopped during the install");
      awaitStatus(bulwark, s -> "active".equals(bundle(s, SYSLOG).getString("state")));
      // The removed plugin stays removed across the restart, and is still offered.
      assertThat(status.getJsonArray("bundles").encode()).doesNotContain(PLUGIN);
      assertThat(
              bulwark.get("/api/v1/updates").body().contains("\"symbolicName\":\"" + PLUGIN + "\""))
          .isFalse();
      assertThat(plugin(plugins(bulwark), "offered", PLUGIN)).isNotNull();

      // The stick pulled out while a package is copied off it.
      if (stick.fuse()) {
        HttpResponse<String> big =
            bulwark.send(
                "POST", bulwark.baseUrl() + "/api/v1/updates/stick/big-0.5.0.bwu/install", "{}");
        assertThat(big.statusCode()).as(big.body()).isEqualTo(202);
        awaitStatus(
            bulwark,
            s ->
                s.getJsonObject("job") != null
                    && "copying".equals(s.getJsonObject("job").getString("phase"))
                    && s.getJsonObject("job").getLong("bytes") > 0);
        stick.pull();
        JsonObject pulled = awaitEntry(bulwark, new JsonObject(big.body()).getString("id"));
        assertThat(pulled.getString("outcome")).isEqualTo("refused");
        assertThat(pulled.getString("reason")).contains("stick was removed");
        assertThat(status(bulwark).getString("version")).isEqualTo("0.2.2");
      } else {
        System.out.println("offline-update: no FUSE here, so the stick cannot be pulled mid-read");
      }
      // The Updates page: an admin uploads a package through the browser and sees it installed.
      org.openqa.selenium.chrome.ChromeDriver browser = FleetPageBrowserIT.headlessChromium();
      try {
        var wait =
            new org.openqa.selenium.support.ui.WebDriverWait(browser, Duration.ofSeconds(60));
        wait.ignoring(org.openqa.selenium.StaleElementReferenceException.class);
        browser.get(bulwark.baseUrl() + "/");
        wait.until(d -> d.findElement(org.openqa.selenium.By.id("login-form")));
        browser.findElement(org.openqa.selenium.By.id("login-consent")).click();
        browser.findElement(org.openqa.selenium.By.id("login-user")).sendKeys("admin");
        browser
            .findElement(org.openqa.selenium.By.id("login-password"))
            .sendKeys(RunningAppliance.ADMIN_PASSWORD);
        browser.findElement(org.openqa.selenium.By.id("login-submit")).click();
        wait.until(
                d ->
                    d.findElement(org.openqa.selenium.By.cssSelector("#nav a[data-nav='updates']")))
            .click();
        wait.until(
            d ->
                d.findElement(org.openqa.selenium.By.id("updates-version"))
                    .getText()
                    .equals("0.2.2"));
        browser
            .findElement(org.openqa.selenium.By.id("updates-file"))
            .sendKeys(uploadPkg.toAbsolutePath().toString());
        browser.findElement(org.openqa.selenium.By.id("updates-upload-submit")).click();
        wait.until(
            d ->
                d.findElement(org.openqa.selenium.By.id("updates-version"))
                    .getText()
                    .equals("0.2.5"));
        wait.until(
            d ->
                d.findElement(org.openqa.selenium.By.cssSelector("#updates-history tbody tr"))
                    .getText()
                    .contains("installed"));
        // The removed plugin is installed again from the page.
        wait.until(
                d ->
                    d.findElement(
                        org.openqa.selenium.By.cssSelector(
                            "#updates-offered tr[data-bundle='"
                                + PLUGIN
                                + "'] button.install-plugin")))
            .click();
        wait.until(
            d ->
                d.findElement(
                        org.openqa.selenium.By.cssSelector(
                            "#updates-bundles tr[data-bundle='" + PLUGIN + "']"))
                    .getText()
                    .contains("active"));
        wait.until(
            d ->
                d.findElements(
                            org.openqa.selenium.By.cssSelector(
                                "#updates-offered tr[data-bundle='" + PLUGIN + "']"))
                        .isEmpty()
                    && d.findElements(
                                org.openqa.selenium.By.cssSelector(
                                    "#updates-offered tr[data-bundle='" + EXTRA + "']"))
                            .size()
                        == 1);
        String page = browser.findElement(org.openqa.selenium.By.id("updates-history")).getText();
        assertThat(page)
            .contains("upload:upload-0.2.5.bwu")
            .contains("rolled-back")
            .contains("refused")
            .contains("stopped during the install");
        Files.write(
            work.resolve("updates-page.png"),
            ((org.openqa.selenium.TakesScreenshot) browser)
                .getScreenshotAs(org.openqa.selenium.OutputType.BYTES));
        browser.executeScript(
            "document.querySelector('#updates-offered').scrollIntoView({block: 'start'})");
        Files.write(
            work.resolve("updates-plugins.png"),
            ((org.openqa.selenium.TakesScreenshot) browser)
                .getScreenshotAs(org.openqa.selenium.OutputType.BYTES));
      } finally {
        browser.quit();
      }
      JsonObject reinstalled = history(bulwark).get(0);
      assertThat(reinstalled.getString("source")).isEqualTo("plugin:" + PLUGIN);
      assertThat(reinstalled.getString("outcome")).isEqualTo("installed");
      assertThat(bundle(status(bulwark), PLUGIN).getString("state")).isEqualTo("active");
      JsonObject uploaded = history(bulwark).get(1);
      assertThat(uploaded.getString("source")).isEqualTo("upload:upload-0.2.5.bwu");
      assertThat(uploaded.getString("outcome")).isEqualTo("installed");

      String audit = bulwark.get("/api/v1/audit?limit=500").body();
      assertThat(audit)
          .contains("update.install")
          .contains("update.rollback")
          .contains("update.recover")
          .contains("update.plugin.remove")
          .contains("update.plugin.install");
    }
  }

  // ------------------------------------------------------------------ the appliance's answers

  static JsonObject status(RunningAppliance b) throws Exception {
    return new JsonObject(answered(b, "/api/v1/updates"));
  }

  /** GETs {@code path}, which must be answered 200 (the appliance is up: the area answers). */
  private static String answered(RunningAppliance b, String path) throws Exception {
    HttpResponse<String> r = b.get(path);
    assertThat(r.statusCode()).as(path + ": " + r.body()).isEqualTo(200);
    return r.body();
  }

  static List<JsonObject> history(RunningAppliance b) throws Exception {
    List<JsonObject> out = new ArrayList<>();
    new JsonObject(answered(b, "/api/v1/updates/history"))
        .getJsonArray("updates")
        .forEach(e -> out.add((JsonObject) e));
    return out;
  }

  static JsonObject plugins(RunningAppliance b) throws Exception {
    return new JsonObject(answered(b, "/api/v1/updates/plugins"));
  }

  /** The plugin {@code bsn} in the list {@code which} ("running" or "offered"). */
  private static JsonObject plugin(JsonObject plugins, String which, String bsn) {
    for (Object o : plugins.getJsonArray(which)) {
      if (((JsonObject) o).getString("symbolicName").equals(bsn)) {
        return (JsonObject) o;
      }
    }
    throw new AssertionError(bsn + " is not " + which + " in " + plugins.encodePrettily());
  }

  private static JsonObject bundle(JsonObject status, String bsn) {
    for (Object o : status.getJsonArray("bundles")) {
      JsonObject b = (JsonObject) o;
      if (b.getString("symbolicName").equals(bsn)) {
        return b;
      }
    }
    throw new AssertionError(bsn + " is not in " + status.encodePrettily());
  }

  private static JsonObject awaitStatus(
      RunningAppliance b, java.util.function.Predicate<JsonObject> done) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    JsonObject s = null;
    while (System.nanoTime() < deadline) {
      HttpResponse<String> r = b.get("/api/v1/updates");
      if (r.statusCode() == 200) {
        s = new JsonObject(r.body());
        if (done.test(s)) {
          return s;
        }
      }
      Thread.sleep(50);
    }
    throw new AssertionError(
        "the update status did not get there: " + (s == null ? "" : s.encodePrettily()));
  }

  static JsonObject awaitEntry(RunningAppliance b, String id) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
    while (System.nanoTime() < deadline) {
      HttpResponse<String> r;
      try {
        r = b.get("/api/v1/updates/history");
      } catch (IOException swapping) {
        // the admin plane itself restarting, when the swap replaces it
        Thread.sleep(100);
        continue;
      }
      if (r.statusCode() != 200) {
        // 503 while a swap has the updates routes away (a service they use is being replaced)
        Thread.sleep(100);
        continue;
      }
      List<JsonObject> entries = new ArrayList<>();
      new JsonObject(r.body()).getJsonArray("updates").forEach(e -> entries.add((JsonObject) e));
      for (JsonObject e : entries) {
        if (e.getString("id").equals(id)) {
          return e;
        }
      }
      Thread.sleep(100);
    }
    throw new AssertionError("update " + id + " did not end:\n" + b.console());
  }

  static JsonObject install(RunningAppliance b, String file, boolean downgrade) throws Exception {
    HttpResponse<String> r =
        b.send(
            "POST",
            b.baseUrl() + "/api/v1/updates/stick/" + file + "/install",
            new JsonObject().put("allowDowngrade", downgrade).encode());
    assertThat(r.statusCode()).as(r.body()).isEqualTo(202);
    return awaitEntry(b, new JsonObject(r.body()).getString("id"));
  }

  private static JsonObject assertRefused(RunningAppliance b, String file, String why)
      throws Exception {
    String before = status(b).getString("version");
    JsonObject e = install(b, file, false);
    assertThat(e.getString("outcome")).as(file + ": " + e.encodePrettily()).isEqualTo("refused");
    assertThat(e.getString("reason")).as(file).contains(why);
    assertThat(status(b).getString("version"))
        .as("nothing changed after " + file)
        .isEqualTo(before);
    System.out.println("offline-update: " + file + " refused: " + e.getString("reason"));
    return e;
  }

  /** Reads the admin plane and the fleet's scrape targets every 50 ms until stopped. */
  private static final class Watch {
    record Result(int answered, int refused, boolean scrapesAdvanced) {}

    private final AtomicBoolean running = new AtomicBoolean(true);
    private final AtomicInteger answered = new AtomicInteger();
    private final AtomicInteger refused = new AtomicInteger();
    private final java.util.Set<String> scrapes =
        java.util.concurrent.ConcurrentHashMap.newKeySet();
    private Thread thread;

    static Watch start(RunningAppliance b) {
      Watch w = new Watch();
      w.thread =
          new Thread(
              () -> {
                while (w.running.get()) {
                  try {
                    HttpResponse<String> r = b.get("/api/v1/telemetry/targets");
                    if (r.statusCode() == 200) {
                      w.answered.incrementAndGet();
                      for (Object t :
                          new JsonObject(r.body()).getJsonArray("targets", new JsonArray())) {
                        String last = ((JsonObject) t).getString("lastScrape");
                        if (last != null) {
                          w.scrapes.add(last);
                        }
                      }
                    } else {
                      w.refused.incrementAndGet();
                    }
                  } catch (Exception e) {
                    w.refused.incrementAndGet();
                  }
                  try {
                    Thread.sleep(50);
                  } catch (InterruptedException e) {
                    return;
                  }
                }
              },
              "update-watch");
      w.thread.start();
      return w;
    }

    /** Waits until {@code done} holds for what the watch has seen, at most 30 s. */
    void await(java.util.function.Predicate<Watch> done, String what) throws InterruptedException {
      long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
      while (!done.test(this) && System.nanoTime() < deadline) {
        Thread.sleep(50);
      }
      assertThat(done.test(this))
          .as("%s within 30 s (%d answered, %d scrapes seen)", what, answered.get(), scrapes.size())
          .isTrue();
    }

    Result stop() throws InterruptedException {
      running.set(false);
      thread.join(10_000);
      return new Result(answered.get(), refused.get(), scrapes.size() > 16);
    }
  }

  /** Waits until the install journal is on disk under {@code data} (the swap has begun). */
  private static void awaitJournal(Path data) throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (System.nanoTime() < deadline) {
      try (var walk = Files.walk(data)) {
        if (walk.anyMatch(p -> p.getFileName().toString().equals("journal.json"))) {
          return;
        }
      } catch (java.io.UncheckedIOException | java.nio.file.NoSuchFileException vanished) {
        // a file the store rotated away while it was listed: look again
      }
      Thread.sleep(50);
    }
    throw new AssertionError("no install journal under " + data + " within 30 s");
  }

  // ------------------------------------------------------------------ the release engineer's side

  /**
   * Runs the release engineer's tool in its own JVM (outside approved-only mode, as on the
   * workstation).
   */
  static String tool(String... args) throws Exception {
    List<String> cmd =
        new ArrayList<>(
            List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                "io.bulwark.updates.internal.UpdateTool"));
    cmd.addAll(List.of(args));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(String.join(" ", args) + ":\n" + out).isZero();
    return out;
  }

  static Path pack(Path dir, String name, String version, String range, String key, String... files)
      throws Exception {
    Path notes = dir.resolve(name + ".notes");
    Files.writeString(notes, "Release " + version + " for the update test.\n");
    Path out = dir.resolve(name + ".bwu");
    List<String> args =
        new ArrayList<>(
            List.of(
                "pack",
                out.toString(),
                version,
                range,
                notes.toString(),
                dir.getParent().resolve("signing").toString(),
                key));
    args.addAll(List.of(files));
    tool(args.toArray(String[]::new));
    Files.delete(notes);
    return out;
  }

  /** The demo jar's copy of a bundle. */
  static byte[] embedded(String bsn) throws IOException {
    try (ZipFile demo = new ZipFile(System.getProperty("bulwark.demo.jar"))) {
      ZipEntry e = demo.getEntry("jar/" + bsn + "-0.1.0-SNAPSHOT.jar");
      assertThat(e).as(bsn + " in the demo jar").isNotNull();
      try (InputStream in = demo.getInputStream(e)) {
        return in.readAllBytes();
      }
    }
  }

  private static String embeddedVersion(byte[] jar) throws IOException {
    try (JarInputStream in = new JarInputStream(new ByteArrayInputStream(jar))) {
      return in.getManifest().getMainAttributes().getValue("Bundle-Version");
    }
  }

  /**
   * The bundle at another version, with headers set (a value starting with '+' is appended to the
   * header's clauses) and entries added.
   */
  /** A bundle of nothing but its manifest: it resolves and starts anywhere. */
  static byte[] emptyBundle(String bsn, String version) throws IOException {
    Manifest m = new Manifest();
    Attributes a = m.getMainAttributes();
    a.putValue("Manifest-Version", "1.0");
    a.putValue("Bundle-ManifestVersion", "2");
    a.putValue("Bundle-SymbolicName", bsn);
    a.putValue("Bundle-Version", version);
    a.putValue("Bundle-Name", "An example plugin");
    a.putValue("Bulwark-Plugin", "example");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (JarOutputStream j = new JarOutputStream(out, m)) {
      j.putNextEntry(new JarEntry("README.txt"));
      j.write("An example plugin for the update test.\n".getBytes(StandardCharsets.UTF_8));
      j.closeEntry();
    }
    return out.toByteArray();
  }

  static byte[] rebuild(
      byte[] jar, String version, Map<String, String> headers, Map<String, byte[]> add)
      throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (JarInputStream in = new JarInputStream(new ByteArrayInputStream(jar))) {
      Manifest m = new Manifest(in.getManifest());
      Attributes a = m.getMainAttributes();
      a.putValue("Bundle-Version", version);
      for (var h : headers.entrySet()) {
        String v = h.getValue();
        if (v.startsWith("+")) {
          String old = a.getValue(h.getKey());
          v = old == null || old.isBlank() ? v.substring(1) : old + "," + v.substring(1);
        }
        a.putValue(h.getKey(), v);
      }
      try (JarOutputStream j = new JarOutputStream(out, m)) {
        JarEntry e;
        while ((e = in.getNextJarEntry()) != null) {
          j.putNextEntry(new JarEntry(e.getName()));
          in.transferTo(j);
          j.closeEntry();
        }
        for (var x : add.entrySet()) {
          j.putNextEntry(new JarEntry(x.getKey()));
          j.write(x.getValue());
          j.closeEntry();
        }
      }
    }
    return out.toByteArray();
  }

  static Map<String, byte[]> classFile(Class<?> c) throws IOException {
    String name = c.getName().replace('.', '/') + ".class";
    try (InputStream in = c.getClassLoader().getResourceAsStream(name)) {
      return Map.of(name, in.readAllBytes());
    }
  }

  static Path write(Path p, byte[] b) throws IOException {
    Files.write(p, b);
    return p;
  }

  private interface EntryEdit {
    void write(ZipOutputStream out, ZipEntry e, byte[] content) throws IOException;
  }

  private static byte[] edit(byte[] zip, EntryEdit edit) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (ZipInputStream in = new ZipInputStream(new ByteArrayInputStream(zip));
        ZipOutputStream z = new ZipOutputStream(out)) {
      ZipEntry e;
      while ((e = in.getNextEntry()) != null) {
        edit.write(z, e, in.readAllBytes());
      }
    }
    return out.toByteArray();
  }

  private static void put(ZipOutputStream z, String name, byte[] content) throws IOException {
    z.putNextEntry(new ZipEntry(name));
    z.write(content);
    z.closeEntry();
  }

  /** The package with one byte of an entry's content flipped (a corrupted copy). */
  private static byte[] flipInEntry(byte[] zip, String entry) throws IOException {
    return edit(
        zip,
        (z, e, c) -> {
          if (e.getName().equals(entry)) {
            c[c.length / 2] ^= 0x20;
          }
          put(z, e.getName(), c);
        });
  }

  private static byte[] without(byte[] zip, String entry) throws IOException {
    return edit(
        zip,
        (z, e, c) -> {
          if (!e.getName().equals(entry)) {
            put(z, e.getName(), c);
          }
        });
  }

  private static byte[] withEntry(byte[] zip, String name, byte[] content) throws IOException {
    byte[] copy = edit(zip, (z, e, c) -> put(z, e.getName(), c));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (ZipInputStream in = new ZipInputStream(new ByteArrayInputStream(copy));
        ZipOutputStream z = new ZipOutputStream(out)) {
      ZipEntry e;
      while ((e = in.getNextEntry()) != null) {
        put(z, e.getName(), in.readAllBytes());
      }
      put(z, name, content);
    }
    return out.toByteArray();
  }

  /** The package with an entry replaced by {@code bytes} zeros: a few MB that inflate to a GiB. */
  private static byte[] inflated(byte[] zip, String entry, long bytes) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (ZipInputStream in = new ZipInputStream(new ByteArrayInputStream(zip));
        ZipOutputStream z = new ZipOutputStream(out)) {
      ZipEntry e;
      while ((e = in.getNextEntry()) != null) {
        byte[] c = in.readAllBytes();
        z.putNextEntry(new ZipEntry(e.getName()));
        if (e.getName().equals(entry)) {
          byte[] block = new byte[1 << 20];
          for (long n = 0; n < bytes; n += block.length) {
            z.write(block);
          }
        } else {
          z.write(c);
        }
        z.closeEntry();
      }
    }
    return out.toByteArray();
  }

  /**
   * The update stick: a FAT32 filesystem image (mkfs.vfat) holding the packages (mcopy), mounted
   * read-only with fusefat in the foreground, so that killing it is pulling the stick out (the
   * packages have long names: fusefat shows a name that fits 8.3 in upper case). Without /dev/fuse
   * the mount point is a plain folder holding copies of the packages.
   */
  private static final class Stick implements AutoCloseable {
    private final Path mount;
    private final Process fuse;

    private Stick(Path mount, Process fuse) {
      this.mount = mount;
      this.fuse = fuse;
    }

    /** Makes the image of {@code packages} (null: reuse the image) and mounts it. */
    static Stick of(Path image, Path mount, Path packages) throws Exception {
      if (packages != null) {
        Files.deleteIfExists(image);
        run("truncate", "-s", "512M", image.toString());
        run("mkfs.vfat", "-F", "32", "-n", "BWUPDATE", image.toString());
        try (var list = Files.list(packages)) {
          for (Path p : list.filter(x -> x.toString().endsWith(".bwu")).sorted().toList()) {
            run("mcopy", "-i", image.toString(), p.toString(), "::/" + p.getFileName());
          }
        }
      }
      if (Files.exists(Path.of("/dev/fuse"))) {
        Process p =
            new ProcessBuilder("fusefat", "-f", "-o", "ro", image.toString(), mount.toString())
                .redirectErrorStream(true)
                .redirectOutput(mount.resolveSibling("fusefat.log").toFile())
                .start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (System.nanoTime() < deadline) {
          try (var list = Files.list(mount)) {
            if (list.findAny().isPresent()) {
              return new Stick(mount, p);
            }
          } catch (IOException notYet) {
            // not mounted yet
          }
          if (!p.isAlive()) {
            break;
          }
          Thread.sleep(100);
        }
        p.destroyForcibly();
        System.out.println(
            "offline-update: fusefat did not mount the stick ("
                + Files.readString(mount.resolveSibling("fusefat.log"))
                + "); using a folder");
      } else {
        System.out.println("offline-update: no /dev/fuse here; the stick is a plain folder");
      }
      run("mcopy", "-n", "-i", image.toString(), "::/*", mount.toString() + "/");
      return new Stick(mount, null);
    }

    boolean fuse() {
      return fuse != null;
    }

    /** Pulls the stick out: the filesystem's process dies, reads fail. */
    void pull() throws Exception {
      fuse.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }

    @Override
    public void close() throws Exception {
      if (fuse != null) {
        fuse.destroy();
        fuse.waitFor(10, TimeUnit.SECONDS);
        new ProcessBuilder("fusermount", "-u", "-z", mount.toString())
            .redirectErrorStream(true)
            .start()
            .waitFor(10, TimeUnit.SECONDS);
      }
    }

    private static void run(String... cmd) throws Exception {
      Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
      assertThat(p.exitValue()).as(String.join(" ", cmd) + ":\n" + out).isZero();
    }
  }
}
