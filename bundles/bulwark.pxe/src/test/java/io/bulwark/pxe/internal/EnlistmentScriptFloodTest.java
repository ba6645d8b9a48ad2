package io.bulwark.pxe.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.bulwark.api.provisioning.BootPurpose;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Anyone on the provisioning network can fetch the iPXE script of a MAC they made up, and each such
 * script carries a boot token for an enlistment. Given 1,000 invented MACs fetched from one
 * address, and from 50: the tokens issued and the lines logged stay bounded, and a machine an admin
 * added, asking from the flooding address itself, still gets its token and its report is taken. The
 * clients are real sockets bound to loopback addresses (127.0.0.0/8 is all local on Linux).
 */
class EnlistmentScriptFloodTest {
  static final String KNOWN = "52:54:00:0a:00:01";
  private static final Pattern TOKEN = Pattern.compile("bulwark\\.token=([A-Za-z0-9_-]+)");

  @TempDir Path boot;
  @TempDir Path tftp;
  final Planner planner = new Planner();
  final BootTokens tokens = new BootTokens(Duration.ofMinutes(30), java.time.Clock.systemUTC());
  final List<LogRecord> logged = new CopyOnWriteArrayList<>();
  final Handler handler =
      new Handler() {
        @Override
        public void publish(LogRecord r) {
          logged.add(r);
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
      };
  BootHttp http;

  @BeforeEach
  void start() throws Exception {
    Files.createDirectories(boot.resolve("env"));
    Files.writeString(boot.resolve(BootScripts.KERNEL), "kernel");
    Files.writeString(boot.resolve(BootScripts.INITRD), "initramfs");
    planner.purposes.put(KNOWN, BootPurpose.COMMISSION);
    http =
        new BootHttp(
            new InetSocketAddress("127.0.0.1", 0),
            boot,
            tftp,
            new BootScripts("http://10.77.0.1:8088", boot, () -> planner, tokens),
            tokens,
            () -> planner);
    Logger.getLogger(BootHttp.class.getName()).addHandler(handler);
  }

  @AfterEach
  void stop() {
    Logger.getLogger(BootHttp.class.getName()).removeHandler(handler);
    http.close();
  }

  static String invented(int i) {
    return String.format(Locale.ROOT, "02:00:00:00:%02x:%02x", i >> 8 & 0xff, i & 0xff);
  }

  /** A status line and body, asked from the client address {@code from}. */
  record Answer(int status, String body) {}

  Answer send(String from, String method, String path, String body) throws IOException {
    try (Socket s = new Socket()) {
      s.bind(new InetSocketAddress(from, 0));
      s.connect(new InetSocketAddress("127.0.0.1", http.port()), 5_000);
      s.setSoTimeout(10_000);
      byte[] b = body.getBytes(StandardCharsets.UTF_8);
      OutputStream out = s.getOutputStream();
      out.write(
          (method
                  + " "
                  + path
                  + " HTTP/1.1\r\nHost: 10.77.0.1\r\nConnection: close\r\nContent-Length: "
                  + b.length
                  + "\r\n\r\n")
              .getBytes(StandardCharsets.US_ASCII));
      out.write(b);
      out.flush();
      String answer = new String(s.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      int end = answer.indexOf("\r\n\r\n");
      return new Answer(
          Integer.parseInt(answer.substring(9, 12)), end < 0 ? "" : answer.substring(end + 4));
    }
  }

  Answer script(String from, String mac) throws IOException {
    return send(from, "GET", "/ipxe/" + mac.replace(':', '-') + ".ipxe", "");
  }

  void theKnownMachineBootsAndReports(String from) throws IOException {
    Answer script = script(from, KNOWN);
    Matcher token = TOKEN.matcher(script.body());
    assertThat(token.find()).as(script.body()).isTrue();
    assertThat(script.body()).contains("bulwark.mode=commission");
    Answer report =
        send(from, "POST", "/report/commission?token=" + token.group(1) + "&mac=" + KNOWN, "{}");
    assertThat(report.status()).isEqualTo(200);
    assertThat(report.body()).contains("taken: commission of " + KNOWN);
  }

  @Test
  void aThousandInventedMacsFromOneAddressGetAFewTokens() throws Exception {
    int withToken = 0;
    String refused = null;
    for (int i = 0; i < 1_000; i++) {
      Answer a = script("127.0.0.66", invented(i));
      assertThat(a.status()).isEqualTo(200);
      if (TOKEN.matcher(a.body()).find()) {
        withToken++;
      } else {
        refused = a.body();
      }
      if (i == 500) {
        theKnownMachineBootsAndReports("127.0.0.66");
      }
    }
    System.out.printf(
        "1,000 invented MACs' scripts from one address: %d tokens, %d log lines%n",
        withToken, logged.size());
    assertThat(withToken).isBetween(10, 11);
    assertThat(tokens.size()).isLessThanOrEqualTo(12);
    assertThat(refused)
        .startsWith("#!ipxe\n")
        .contains("127.0.0.66")
        .contains("retrying in")
        .doesNotContain("kernel");
    assertThat(logged.size()).as("lines logged").isLessThanOrEqualTo(withToken + 2 + 1);
    assertThat(http.lastScript.size()).isLessThanOrEqualTo(BootHttp.MAX_LAST_SCRIPTS);
  }

  @Test
  void aThousandInventedMacsFromFiftyAddressesGetABoundedNumberOfTokens() throws Exception {
    int withToken = 0;
    for (int i = 0; i < 1_000; i++) {
      Answer a = script("127.0.1." + (i % 50 + 1), invented(i));
      withToken += TOKEN.matcher(a.body()).find() ? 1 : 0;
      if (i == 500) {
        theKnownMachineBootsAndReports("127.0.1.7");
      }
    }
    System.out.printf(
        "1,000 invented MACs' scripts from 50 addresses: %d tokens, %d log lines%n",
        withToken, logged.size());
    assertThat(withToken).isLessThanOrEqualTo(50 * 11);
    assertThat(tokens.size()).isLessThanOrEqualTo(50 * 11 + 1);
    assertThat(logged.size()).isLessThanOrEqualTo(withToken + 2 + 50);
  }

  @Test
  void reportsWithGuessedTokensLogOneLinePerAddressAndMinute() throws Exception {
    for (int i = 0; i < 200; i++) {
      Answer a =
          send(
              "127.0.0.77",
              "POST",
              "/report/enlist?token=guess-" + i + "&mac=" + invented(i),
              "{}");
      assertThat(a.status()).isEqualTo(403);
    }
    assertThat(logged).hasSize(1);
    assertThat(planner.reports).isEmpty();
  }
}
