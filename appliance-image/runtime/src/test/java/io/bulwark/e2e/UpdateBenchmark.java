package io.bulwark.e2e;

import io.vertx.core.json.JsonObject;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.jar.JarInputStream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * Benchmark harness (not a test; run by hand, see docs/benchmarks.md): offline updates of many
 * bundles at once on the demo appliance (8 simulated nodes). Every bundle of the demo jar is
 * rebuilt with one more entry (so that each differs from the running one) and packed with keys the
 * tool generates; then:
 *
 * <ol>
 *   <li>the package of every bundle, which the appliance refuses because it changes bundles the
 *       updater is wired to (it names them);
 *   <li>the package of every other bundle: verify and install time, and the admin plane read every
 *       20 ms during the install (requests refused, longest time without an answer);
 *   <li>the same set with one bundle whose activator throws: the rollback time.
 * </ol>
 *
 * <p>System property {@code bulwark.demo.jar}: the demo jar.
 */
public final class UpdateBenchmark {
  private UpdateBenchmark() {}

  public static void main(String[] args) throws Exception {
    Path work = Files.createTempDirectory("update-bench");
    Path signing = Files.createDirectories(work.resolve("signing"));
    Path trust = Files.createDirectories(work.resolve("data").resolve("keys"));
    OfflineUpdateIT.tool("keygen", "release", signing.toString());
    for (String kind : List.of("ecdsa", "lms")) {
      Files.copy(
          signing.resolve("release." + kind + ".pem"), trust.resolve("release." + kind + ".pem"));
    }
    Path jars = Files.createDirectories(work.resolve("jars"));
    Map<String, Path> all = new TreeMap<>();
    long bytes = 0;
    try (ZipFile demo = new ZipFile(System.getProperty("bulwark.demo.jar"))) {
      Enumeration<? extends ZipEntry> entries = demo.entries();
      while (entries.hasMoreElements()) {
        ZipEntry e = entries.nextElement();
        if (!e.getName().startsWith("jar/") || !e.getName().endsWith(".jar")) {
          continue;
        }
        byte[] jar;
        try (InputStream in = demo.getInputStream(e)) {
          jar = in.readAllBytes();
        }
        String bsn;
        String version;
        try (JarInputStream in = new JarInputStream(new ByteArrayInputStream(jar))) {
          if (in.getManifest() == null
              || in.getManifest().getMainAttributes().getValue("Bundle-SymbolicName") == null) {
            continue;
          }
          bsn =
              in.getManifest()
                  .getMainAttributes()
                  .getValue("Bundle-SymbolicName")
                  .split(";")[0]
                  .strip();
          version = in.getManifest().getMainAttributes().getValue("Bundle-Version");
        }
        if (bsn.equals("bulwark.updates")
            || bsn.startsWith("bc")
            || bsn.equals("org.apache.felix.framework")) {
          // the updater itself, the framework and the crypto module on its class path (not bundles)
          continue;
        }
        byte[] rebuilt =
            OfflineUpdateIT.rebuild(
                jar,
                version,
                Map.of(),
                Map.of(
                    "META-INF/bulwark-update-benchmark.txt",
                    "rebuilt\n".getBytes(StandardCharsets.UTF_8)));
        all.put(bsn, OfflineUpdateIT.write(jars.resolve(bsn + ".jar"), rebuilt));
        bytes += rebuilt.length;
      }
    }
    Path pkgs = Files.createDirectories(work.resolve("packages"));
    Path stick = Files.createDirectories(work.resolve("stick"));
    long t = System.nanoTime();
    OfflineUpdateIT.pack(pkgs, "all-0.2.0", "0.2.0", "[0.1,1)", "release", files(all));
    System.out.printf(
        "packed %d bundles (%.1f MiB) in %.1f s%n",
        all.size(), bytes / 1048576.0, (System.nanoTime() - t) / 1e9);
    Files.move(pkgs.resolve("all-0.2.0.bwu"), stick.resolve("all-0.2.0.bwu"));
    try (RunningAppliance bulwark =
        RunningAppliance.demo(
            work, Map.of("BULWARK_SIM_NODES", "8", "BULWARK_UPDATES_WATCH", stick.toString()))) {
      bulwark.awaitUp(Duration.ofSeconds(120));
      Thread.sleep(10_000);
      JsonObject refused = OfflineUpdateIT.install(bulwark, "all-0.2.0.bwu", false);
      System.out.println(
          "every bundle: "
              + refused.getString("outcome")
              + ": "
              + refused.getString("reason")
              + " "
              + refused.getJsonObject("timings"));
      String reason = refused.getString("reason");
      Map<String, Path> swappable = new TreeMap<>(all);
      int open = reason.indexOf("runs (");
      if (open >= 0) {
        for (String bsn : reason.substring(open + 6, reason.indexOf("):", open)).split(", ")) {
          swappable.remove(bsn.strip());
        }
      }
      // Only what the appliance runs as bundles (the demo jar also holds the launcher and the class
      // path of the framework).
      java.util.Set<String> installed = new java.util.HashSet<>();
      OfflineUpdateIT.status(bulwark)
          .getJsonArray("bundles")
          .forEach(b -> installed.add(((JsonObject) b).getString("symbolicName")));
      swappable.keySet().retainAll(installed);
      long size = 0;
      for (Path p : swappable.values()) {
        size += Files.size(p);
      }
      OfflineUpdateIT.pack(
          pkgs, "swappable-0.2.0", "0.2.0", "[0.1,1)", "release", files(swappable));
      Path pkg = stick.resolve("swappable-0.2.0.bwu");
      Files.move(pkgs.resolve("swappable-0.2.0.bwu"), pkg);
      System.out.printf(
          "package of the %d other bundles: %.1f MiB of bundles, %.1f MiB package%n",
          swappable.size(), size / 1048576.0, Files.size(pkg) / 1048576.0);

      AtomicBoolean running = new AtomicBoolean(true);
      AtomicInteger answered = new AtomicInteger();
      AtomicInteger failed = new AtomicInteger();
      AtomicLong longest = new AtomicLong();
      AtomicLong longestSilence = new AtomicLong();
      // what the refused requests were answered: a status and its problem title, or the exception
      Map<String, Integer> refusals = new java.util.concurrent.ConcurrentSkipListMap<>();
      Thread probe =
          new Thread(
              () -> {
                long last = System.nanoTime();
                long lastAnswer = last;
                while (running.get()) {
                  try {
                    HttpResponse<String> r = bulwark.get("/api/v1/health");
                    long now = System.nanoTime();
                    longestSilence.accumulateAndGet(now - lastAnswer, Math::max);
                    lastAnswer = now;
                    if (r.statusCode() == 200) {
                      answered.incrementAndGet();
                      longest.accumulateAndGet(now - last, Math::max);
                      last = now;
                    } else {
                      failed.incrementAndGet();
                      String title = "";
                      try {
                        title = new JsonObject(r.body()).getString("detail", "");
                      } catch (RuntimeException notJson) {
                        // the status says it
                      }
                      refusals.merge(r.statusCode() + " " + title, 1, Integer::sum);
                    }
                  } catch (Exception e) {
                    failed.incrementAndGet();
                    refusals.merge(e.getClass().getSimpleName(), 1, Integer::sum);
                  }
                  try {
                    Thread.sleep(20);
                  } catch (InterruptedException e) {
                    return;
                  }
                }
              });
      probe.start();
      Thread.sleep(1_000);
      long t0 = System.nanoTime();
      JsonObject done = OfflineUpdateIT.install(bulwark, "swappable-0.2.0.bwu", false);
      double wall = (System.nanoTime() - t0) / 1e9;
      Thread.sleep(3_000);
      running.set(false);
      probe.join();
      System.out.printf(
          "install: %s in %.2f s, timings %s; admin plane: %d answered, %d refused, longest gap"
              + " between answers 200 %.2f s, between any answers %.2f s; refused as %s%n",
          done.getString("outcome"),
          wall,
          done.getJsonObject("timings"),
          answered.get(),
          failed.get(),
          longest.get() / 1e9,
          longestSilence.get() / 1e9,
          refusals);
      if (!"installed".equals(done.getString("outcome"))) {
        System.out.println("  reason: " + done.getString("reason"));
      }

      byte[] base = OfflineUpdateIT.embedded("bulwark.notify.syslog");
      Map<String, Path> broken = new TreeMap<>(swappable);
      broken.put(
          "bulwark.notify.syslog",
          OfflineUpdateIT.write(
              jars.resolve("throwing.jar"),
              OfflineUpdateIT.rebuild(
                  base,
                  "0.1.3",
                  Map.of(
                      "Bundle-Activator",
                      ThrowingActivator.class.getName(),
                      "Import-Package",
                      "+org.osgi.framework"),
                  OfflineUpdateIT.classFile(ThrowingActivator.class))));
      OfflineUpdateIT.pack(pkgs, "broken-0.3.0", "0.3.0", "[0.2,1)", "release", files(broken));
      Files.move(pkgs.resolve("broken-0.3.0.bwu"), stick.resolve("broken-0.3.0.bwu"));
      long t1 = System.nanoTime();
      JsonObject back = OfflineUpdateIT.install(bulwark, "broken-0.3.0.bwu", false);
      System.out.printf(
          "broken set: %s in %.2f s, timings %s%n",
          back.getString("outcome"), (System.nanoTime() - t1) / 1e9, back.getJsonObject("timings"));
      System.out.println(
          "running version now " + OfflineUpdateIT.status(bulwark).getString("version"));
    }
  }

  private static String[] files(Map<String, Path> jars) {
    List<String> out = new ArrayList<>();
    jars.forEach((bsn, p) -> out.add("bundles/" + bsn + ".jar=" + p));
    return out.toArray(String[]::new);
  }
}
