package io.bulwark.e2e;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
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
 * token, each from a loopback address of its own (127.0.11.x), as machines on a provisioning
 * network have; the appliance adds each as a New machine (store, history, audit). Prints the wall
 * time and the percentiles of the script fetch, the report and the two together, and checks that
 * every machine is there.
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
      ExecutorService pool = Executors.newFixedThreadPool(machines);
      CountDownLatch start = new CountDownLatch(1);
      List<Future<long[]>> results = new ArrayList<>();
      for (int i = 0; i < machines; i++) {
        String mac = String.format(Locale.ROOT, "52:54:00:be:%02x:%02x", i >> 8, i & 0xff);
        // Each machine from an address of its own, as on a provisioning network: the appliance
        // lets one address enlist only a few machines a minute.
        InetAddress from = InetAddress.getByName("127.0.11." + (i % 250 + 1));
        results.add(
            pool.submit(
                () -> {
                  start.await();
                  long t0 = System.nanoTime();
                  String[] script =
                      exchange(
                          from, httpPort, "GET", "/ipxe/" + mac.replace(':', '-') + ".ipxe", null);
                  long t1 = System.nanoTime();
                  Matcher m = TOKEN.matcher(script[1]);
                  if (!script[0].equals("200") || !m.find()) {
                    throw new IllegalStateException(mac + ": no script with a token: " + script[1]);
                  }
                  String[] report =
                      exchange(
                          from,
                          httpPort,
                          "POST",
                          "/report/enlist?token=" + m.group(1) + "&mac=" + mac,
                          inventory(mac).encode());
                  long t2 = System.nanoTime();
                  if (!report[0].equals("200")) {
                    throw new IllegalStateException(mac + ": report refused: " + report[1]);
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

  /**
   * One HTTP/1.1 exchange with the provisioning plane on 127.0.0.1:{@code port} from {@code from}
   * (the JDK's HTTP client cannot choose its source address); returns the status code and body.
   */
  static String[] exchange(InetAddress from, int port, String method, String path, String body)
      throws Exception {
    byte[] content = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
    try (Socket socket = new Socket()) {
      socket.bind(new InetSocketAddress(from, 0));
      socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 5_000);
      socket.setSoTimeout(30_000);
      String head =
          method
              + " "
              + path
              + " HTTP/1.1\r\nHost: 127.0.0.1:"
              + port
              + "\r\nConnection: close\r\n"
              + (body == null
                  ? ""
                  : "Content-Type: application/json\r\nContent-Length: " + content.length + "\r\n")
              + "\r\n";
      OutputStream out = socket.getOutputStream();
      out.write(head.getBytes(StandardCharsets.US_ASCII));
      out.write(content);
      out.flush();
      String answer = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      int split = answer.indexOf("\r\n\r\n");
      String status = answer.substring(answer.indexOf(' ') + 1, answer.indexOf(' ') + 4);
      String headers = answer.substring(0, Math.max(split, 0)).toLowerCase(Locale.ROOT);
      String rest = split < 0 ? "" : answer.substring(split + 4);
      return new String[] {
        status, headers.contains("transfer-encoding: chunked") ? unchunk(rest) : rest
      };
    }
  }

  private static String unchunk(String chunked) {
    StringBuilder out = new StringBuilder();
    int at = 0;
    while (at < chunked.length()) {
      int eol = chunked.indexOf("\r\n", at);
      int size = Integer.parseInt(chunked.substring(at, eol).split(";")[0].strip(), 16);
      if (size == 0) {
        break;
      }
      out.append(chunked, eol + 2, eol + 2 + size);
      at = eol + 2 + size + 2;
    }
    return out.toString();
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
