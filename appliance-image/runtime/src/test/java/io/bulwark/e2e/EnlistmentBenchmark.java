package io.bulwark.e2e;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Benchmark harness (not a test; run by hand as root, see docs/benchmarks.md): the demo appliance
 * with its provisioning plane on loopback, and N machines enlisting at the same moment as the boot
 * environment does it: each fetches its iPXE script over HTTP boot (which issues its one-time
 * token), then posts its enlistment report (an inventory as inventory.sh writes it) with that
 * token; the appliance adds each as a New machine (store, history, audit). Prints the wall time and
 * the percentiles of the script fetch, the report and the two together, and checks that every
 * machine is there.
 *
 * <p>Arguments: MACHINES (50). System property {@code bulwark.demo.jar}: the demo jar.
 */
public final class EnlistmentBenchmark {
  private static final Pattern TOKEN = Pattern.compile("bulwark\\.token=([A-Za-z0-9_-]+)");

  private EnlistmentBenchmark() {}

  public static void main(String[] args) throws Exception {
    int machines = args.length > 0 ? Integer.parseInt(args[0]) : 50;
    Path work = Files.createTempDirectory("enlistment-bench");
    Path env = work.resolve("appliance/data/pxe/boot/env");
    Files.createDirectories(env);
    Path bootenv = Path.of("appliance-image/bootenv/target/bootenv");
    Files.copy(bootenv.resolve("vmlinuz"), env.resolve("vmlinuz"));
    Files.copy(bootenv.resolve("initrd.img"), env.resolve("initrd.img"));
    int httpPort = RunningAppliance.freePort();
    Map<String, String> settings = new HashMap<>();
    settings.put("BULWARK_SIM_NODES", "8");
    settings.put("BULWARK_SIM_SCENARIO", "none");
    settings.put("BULWARK_PXE_ADDRESS", "127.0.0.1");
    settings.put("BULWARK_PXE_SUBNET", "127.0.0.0/8");
    settings.put("BULWARK_PXE_RANGE", "127.0.10.1-127.0.10.250");
    settings.put("BULWARK_PXE_HTTP_PORT", Integer.toString(httpPort));
    try (RunningAppliance bulwark = RunningAppliance.demo(work.resolve("appliance"), settings)) {
      bulwark.awaitUp(Duration.ofSeconds(90));
      bulwark.login();
      HttpClient http =
          HttpClient.newBuilder()
              .version(HttpClient.Version.HTTP_1_1)
              .connectTimeout(Duration.ofSeconds(5))
              .build();
      String base = "http://127.0.0.1:" + httpPort;
      ExecutorService pool = Executors.newFixedThreadPool(machines);
      CountDownLatch start = new CountDownLatch(1);
      List<Future<long[]>> results = new ArrayList<>();
      for (int i = 0; i < machines; i++) {
        String mac = String.format(Locale.ROOT, "52:54:00:be:%02x:%02x", i >> 8, i & 0xff);
        results.add(
            pool.submit(
                () -> {
                  start.await();
                  long t0 = System.nanoTime();
                  HttpResponse<String> script =
                      http.send(
                          HttpRequest.newBuilder(
                                  URI.create(base + "/ipxe/" + mac.replace(':', '-') + ".ipxe"))
                              .timeout(Duration.ofSeconds(30))
                              .build(),
                          HttpResponse.BodyHandlers.ofString());
                  long t1 = System.nanoTime();
                  Matcher m = TOKEN.matcher(script.body());
                  if (script.statusCode() != 200 || !m.find()) {
                    throw new IllegalStateException(
                        mac + ": no script with a token: " + script.body());
                  }
                  HttpResponse<String> report =
                      http.send(
                          HttpRequest.newBuilder(
                                  URI.create(
                                      base + "/report/enlist?token=" + m.group(1) + "&mac=" + mac))
                              .timeout(Duration.ofSeconds(30))
                              .header("Content-Type", "application/json")
                              .POST(HttpRequest.BodyPublishers.ofString(inventory(mac).encode()))
                              .build(),
                          HttpResponse.BodyHandlers.ofString());
                  long t2 = System.nanoTime();
                  if (report.statusCode() != 200) {
                    throw new IllegalStateException(mac + ": report refused: " + report.body());
                  }
                  return new long[] {(t1 - t0) / 1000, (t2 - t1) / 1000, (t2 - t0) / 1000};
                }));
      }
      long w0 = System.nanoTime();
      start.countDown();
      long[][] all = new long[machines][];
      for (int i = 0; i < machines; i++) {
        all[i] = results.get(i).get();
      }
      double wall = (System.nanoTime() - w0) / 1e9;
      pool.shutdown();
      JsonArray listed =
          new JsonObject(bulwark.get("/api/v1/provisioning/machines").body())
              .getJsonArray("machines");
      System.out.printf(
          Locale.ROOT,
          "%d machines enlisted at once in %.2f s; %d listed as reported%n",
          machines,
          wall,
          listed.size());
      String[] phases = {"script fetch", "report", "script + report"};
      for (int p = 0; p < 3; p++) {
        long[] v = new long[machines];
        for (int i = 0; i < machines; i++) {
          v[i] = all[i][p];
        }
        Arrays.sort(v);
        System.out.printf(
            Locale.ROOT,
            "%-16s p50 %7.1f ms  p99 %7.1f ms  max %7.1f ms%n",
            phases[p],
            v[machines / 2] / 1000.0,
            v[Math.max(0, (int) Math.ceil(machines * 0.99) - 1)] / 1000.0,
            v[machines - 1] / 1000.0);
      }
    }
  }

  /** An inventory as the boot environment's inventory.sh writes it for a 2-CPU VM. */
  static JsonObject inventory(String mac) {
    return new JsonObject()
        .put("mac", mac)
        .put("interface", "eth0")
        .put(
            "system",
            new JsonObject()
                .put("vendor", "QEMU")
                .put("product", "Standard PC (i440FX + PIIX, 1996)")
                .put("serial", "")
                .put("uuid", ""))
        .put("cpu", new JsonObject().put("count", 2).put("model", "QEMU Virtual CPU version 2.5+"))
        .put("memoryBytes", 479_000_000L)
        .put(
            "disks",
            new JsonArray()
                .add(
                    new JsonObject()
                        .put("name", "vda")
                        .put("bytes", 64L << 20)
                        .put("model", "")
                        .put("rotational", true)))
        .put(
            "nics",
            new JsonArray()
                .add(
                    new JsonObject()
                        .put("name", "eth0")
                        .put("mac", mac)
                        .put("speedMbps", 1000)
                        .put("driver", "e1000")))
        .put(
            "pci",
            new JsonArray()
                .add(
                    new JsonObject()
                        .put("address", "0000:00:03.0")
                        .put("vendor", "0x8086")
                        .put("device", "0x100e")
                        .put("class", "0x020000")))
        .put("nvidiaGpus", 0);
  }
}
