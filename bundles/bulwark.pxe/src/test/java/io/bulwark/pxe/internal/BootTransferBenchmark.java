package io.bulwark.pxe.internal;

import io.bulwark.api.provisioning.BootPurpose;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.TimeUnit;

/**
 * Benchmark harness (not a test; run by hand as root, see docs/benchmarks.md): one file (100 MB by
 * default) fetched over loopback, in one run, from the plane's TFTP server (curl at block size 1468
 * and 65464; the RFC 7440 client at windowsize 16 and 64), from Debian's dnsmasq serving the same
 * file over TFTP (same clients), from HTTP boot (curl), and as a plain TCP copy of the file
 * (sendfile to a socket, read to the end: the ceiling of the machine). Prints MB/s for each.
 *
 * <p>Arguments: MEGABYTES (100), RUNS (3, the best is printed).
 */
public final class BootTransferBenchmark {
  private BootTransferBenchmark() {}

  public static void main(String[] args) throws Exception {
    int mb = args.length > 0 ? Integer.parseInt(args[0]) : 100;
    int runs = args.length > 1 ? Integer.parseInt(args[1]) : 3;
    Path root = Files.createTempDirectory("bulwark-transfer-bench");
    Path file = root.resolve("image.bin");
    byte[] chunk = new byte[1 << 20];
    new Random(1).nextBytes(chunk);
    try (var out = Files.newOutputStream(file)) {
      for (int i = 0; i < mb; i++) {
        out.write(chunk);
      }
    }
    long size = Files.size(file);
    InetAddress dnsmasqAddress = InetAddress.getByName("127.0.0.3");
    Process dnsmasq =
        new ProcessBuilder(
                "dnsmasq",
                "-k",
                "--port=0",
                "--enable-tftp",
                "--tftp-root=" + root,
                "--listen-address=127.0.0.3",
                "--bind-interfaces",
                "--user=root",
                "--conf-file=/dev/null",
                "--pid-file=" + root.resolve("dnsmasq.pid"))
            .redirectErrorStream(true)
            .redirectOutput(root.resolve("dnsmasq.log").toFile())
            .start();
    Thread.sleep(500);
    Planner planner = new Planner();
    BootTokens tokens = new BootTokens(Duration.ofMinutes(5), Clock.systemUTC());
    planner.purposes.put("00:00:00:00:00:00", BootPurpose.LOCAL);
    try (TftpServer tftp = new TftpServer(root, new InetSocketAddress("127.0.0.1", 0), 1000);
        BootHttp http =
            new BootHttp(
                new InetSocketAddress("127.0.0.1", 0),
                root,
                root,
                new BootScripts("http://127.0.0.1", root, () -> planner, tokens),
                tokens,
                () -> planner)) {
      String ours = "tftp://127.0.0.1:" + tftp.port() + "/image.bin";
      String theirs = "tftp://127.0.0.3/image.bin";
      report("TCP loopback copy (sendfile)", size, runs, () -> tcpCopy(file));
      report(
          "HTTP boot (Undertow), curl",
          size,
          runs,
          () -> curl("http://127.0.0.1:" + http.port() + "/boot/image.bin"));
      for (int blksize : List.of(1468, 65464)) {
        report(
            "Bulwark TFTP, curl blksize " + blksize,
            size,
            runs,
            () -> curl("--tftp-blksize", Integer.toString(blksize), ours));
        report(
            "dnsmasq TFTP, curl blksize " + blksize,
            size,
            runs,
            () -> curl("--tftp-blksize", Integer.toString(blksize), theirs));
      }
      for (int window : List.of(16, 64)) {
        report(
            "Bulwark TFTP, blksize 1468 windowsize " + window,
            size,
            runs,
            () -> window(InetAddress.getLoopbackAddress(), tftp.port(), 1468, window));
        report(
            "dnsmasq TFTP, blksize 1468 windowsize " + window + " asked",
            size,
            runs,
            () -> window(dnsmasqAddress, 69, 1468, window));
      }
    } finally {
      dnsmasq.destroy();
      dnsmasq.waitFor(5, TimeUnit.SECONDS);
    }
  }

  private interface Transfer {
    long run() throws Exception;
  }

  private static void report(String what, long size, int runs, Transfer t) throws Exception {
    double best = Double.MAX_VALUE;
    for (int i = 0; i < runs; i++) {
      long t0 = System.nanoTime();
      long got = t.run();
      double s = (System.nanoTime() - t0) / 1e9;
      if (got != size) {
        throw new IllegalStateException(what + ": got " + got + " of " + size + " bytes");
      }
      best = Math.min(best, s);
    }
    System.out.printf(Locale.ROOT, "%-52s %8.1f MB/s (%.2f s)%n", what, size / best / 1e6, best);
  }

  private static long curl(String... args) throws Exception {
    List<String> c =
        new java.util.ArrayList<>(
            List.of("curl", "-sS", "-o", "/dev/null", "-w", "%{size_download}"));
    c.addAll(List.of(args));
    Process p = new ProcessBuilder(c).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes()).trim();
    p.waitFor();
    return Long.parseLong(out);
  }

  private static long window(InetAddress host, int port, int blksize, int window) throws Exception {
    try (TftpServerTest.WindowClient c = new TftpServerTest.WindowClient(host, port)) {
      c.keep = false;
      c.get("image.bin", blksize, window);
      return c.received;
    }
  }

  private static long tcpCopy(Path file) throws Exception {
    try (java.nio.channels.ServerSocketChannel server =
        java.nio.channels.ServerSocketChannel.open()
            .bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
      Thread sender =
          new Thread(
              () -> {
                try (java.nio.channels.SocketChannel out = server.accept();
                    FileChannel f = FileChannel.open(file, StandardOpenOption.READ)) {
                  long at = 0;
                  long n = f.size();
                  while (at < n) {
                    at += f.transferTo(at, n - at, out);
                  }
                } catch (Exception e) {
                  throw new IllegalStateException(e);
                }
              });
      sender.start();
      long total = 0;
      try (Socket s =
              new Socket(
                  InetAddress.getLoopbackAddress(),
                  ((InetSocketAddress) server.getLocalAddress()).getPort());
          InputStream in = s.getInputStream()) {
        byte[] buf = new byte[1 << 16];
        int n;
        while ((n = in.read(buf)) > 0) {
          total += n;
        }
      }
      sender.join();
      return total;
    }
  }
}
