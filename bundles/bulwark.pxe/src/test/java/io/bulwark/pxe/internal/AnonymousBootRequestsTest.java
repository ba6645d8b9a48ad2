package io.bulwark.pxe.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.bulwark.api.provisioning.BootPurpose;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The provisioning plane's HTTP endpoints answer anyone on the provisioning network. Given a flood
 * of reports and boot logs with guessed, missing or another machine's tokens, bad modes and MACs,
 * each with a body of up to 1 MiB, and paths that are no boot file, script or seed: nothing of it
 * reaches the provisioning service, the only part that audits or stores what a boot reports; the
 * refusals cost a counter each.
 */
class AnonymousBootRequestsTest {
  private static final String MAC = "52:54:00:00:00:01";
  private static final String MIB = "x".repeat(1 << 20);

  @TempDir Path boot;
  @TempDir Path tftp;
  private BootHttp http;
  private final Planner planner = new Planner();
  private final BootTokens tokens =
      new BootTokens(Duration.ofMinutes(30), java.time.Clock.systemUTC());
  private final HttpClient client =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(5))
          .build();

  @BeforeEach
  void start() throws Exception {
    Files.createDirectories(boot.resolve("env"));
    Files.writeString(boot.resolve(BootScripts.KERNEL), "kernel");
    Files.writeString(boot.resolve(BootScripts.INITRD), "initramfs");
    planner.purposes.put(MAC, BootPurpose.COMMISSION);
    http =
        new BootHttp(
            new InetSocketAddress("127.0.0.1", 0),
            boot,
            tftp,
            new BootScripts("http://10.77.0.1:8088", boot, () -> planner, tokens),
            tokens,
            () -> planner);
  }

  @AfterEach
  void stop() {
    http.close();
  }

  @Test
  void aFloodOfBadReportsAndLogsNeverReachesWhatAuditsOrStores() throws Exception {
    String other = tokens.issue("52:54:00:00:00:02", BootPurpose.COMMISSION);
    List<String[]> flood = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      flood.add(new String[] {"POST", "/report/commission?token=guess-" + i + "&mac=" + MAC});
      flood.add(new String[] {"POST", "/report/commission?mac=" + MAC});
      flood.add(new String[] {"POST", "/report/commission?token=" + other + "&mac=" + MAC});
      flood.add(new String[] {"POST", "/report/" + "m".repeat(2000) + "?token=x&mac=" + MAC});
      flood.add(new String[] {"POST", "/report/commission?token=x&mac=" + "z".repeat(2000)});
      flood.add(new String[] {"POST", "/log?token=guess-" + i + "&mac=" + MAC});
      flood.add(new String[] {"POST", "/log?mac=" + "z".repeat(2000)});
      flood.add(new String[] {"POST", "/ipxe/" + MAC.replace(':', '-') + ".ipxe"});
      flood.add(new String[] {"GET", "/ipxe/" + "z".repeat(2000) + ".ipxe"});
      flood.add(new String[] {"GET", "/metadata/" + "a".repeat(43) + "/user-data"});
      flood.add(new String[] {"GET", "/boot/../../../etc/passwd"});
      flood.add(new String[] {"GET", "/" + "q".repeat(2000)});
    }
    Map<Integer, Integer> statuses = new TreeMap<>();
    for (String[] r : flood) {
      HttpRequest.Builder b =
          HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + http.port() + r[1]))
              .timeout(Duration.ofSeconds(30));
      b =
          r[0].equals("POST")
              ? b.POST(HttpRequest.BodyPublishers.ofString(MIB))
              : b.method(r[0], HttpRequest.BodyPublishers.noBody());
      int status;
      try {
        status = client.send(b.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
      } catch (java.io.IOException closed) {
        status = -1;
      }
      statuses.merge(status, 1, Integer::sum);
    }

    System.out.printf("boot plane flood of %d requests: answers %s%n", flood.size(), statuses);
    assertThat(statuses.keySet()).allMatch(s -> s == -1 || (s >= 400 && s < 500));
    assertThat(planner.reports).as("reports taken").isEmpty();
    assertThat(planner.logged).as("log lines taken").isEmpty();
    assertThat(http.reports.sum()).isZero();
    assertThat(http.logLines.sum()).isZero();
  }
}
