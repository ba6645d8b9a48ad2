package io.bulwark.pxe.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.bulwark.api.provisioning.BootPurpose;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** HTTP boot on a real Undertow, read with curl (as iPXE and UEFI HTTP boot would) and the JDK. */
class BootHttpTest {
  @TempDir Path boot;
  @TempDir Path tftp;
  BootHttp http;
  final Planner planner = new Planner();
  final BootTokens tokens = new BootTokens(Duration.ofMinutes(30), java.time.Clock.systemUTC());
  byte[] kernel;
  final HttpClient client =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(5))
          .build();

  @BeforeEach
  void start() throws Exception {
    kernel = new byte[5 * 1024 * 1024];
    new Random(3).nextBytes(kernel);
    Files.createDirectories(boot.resolve("env"));
    Files.write(boot.resolve(BootScripts.KERNEL), kernel);
    Files.writeString(boot.resolve(BootScripts.INITRD), "initramfs");
    Files.writeString(tftp.resolve("ipxe.efi"), "MZ efi loader");
    planner.purposes.put("52:54:00:00:00:01", BootPurpose.COMMISSION);
    planner.purposes.put("52:54:00:00:00:02", BootPurpose.LOCAL);
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

  private String url(String path) {
    return "http://127.0.0.1:" + http.port() + path;
  }

  private HttpResponse<byte[]> get(String path, String range) throws Exception {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create(url(path))).timeout(Duration.ofSeconds(10));
    if (range != null) {
      b.header("Range", range);
    }
    return client.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
  }

  @Test
  void bootFilesAreServedWholeAndByRange() throws Exception {
    HttpResponse<byte[]> whole = get("/boot/env/vmlinuz", null);
    assertThat(whole.statusCode()).isEqualTo(200);
    assertThat(whole.body()).isEqualTo(kernel);

    HttpResponse<byte[]> part = get("/boot/env/vmlinuz", "bytes=1000-1999");
    assertThat(part.statusCode()).isEqualTo(206);
    assertThat(part.headers().firstValue("Content-Range"))
        .hasValue("bytes 1000-1999/" + kernel.length);
    assertThat(part.body()).isEqualTo(Arrays.copyOfRange(kernel, 1000, 2000));

    // curl resumes a cut download the way iPXE and firmware do, with a range from an offset.
    Path out = tftp.getParent().resolve("resumed-" + System.nanoTime());
    Files.write(out, Arrays.copyOf(kernel, 777_777));
    Process p =
        new ProcessBuilder("curl", "-sS", "-C", "-", "-o", out.toString(), url("/boot/env/vmlinuz"))
            .redirectErrorStream(true)
            .start();
    assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).isZero();
    assertThat(Files.readAllBytes(out)).isEqualTo(kernel);
    Files.delete(out);
  }

  @Test
  void theIpxeLoaderIsFoundInTheTftpRootForUefiHttpBoot() throws Exception {
    HttpResponse<byte[]> efi = get("/boot/ipxe.efi", null);
    assertThat(efi.statusCode()).isEqualTo(200);
    assertThat(new String(efi.body(), StandardCharsets.US_ASCII)).isEqualTo("MZ efi loader");
  }

  @Test
  void eachMachineGetsTheScriptOfItsState() throws Exception {
    String commissioning =
        new String(get("/ipxe/52-54-00-00-00-01.ipxe", null).body(), StandardCharsets.UTF_8);
    assertThat(commissioning)
        .startsWith("#!ipxe\n")
        .contains("kernel http://10.77.0.1:8088/boot/env/vmlinuz")
        .contains("bulwark.mode=commission")
        .contains("BOOTIF=01-52-54-00-00-00-01")
        .contains("initrd http://10.77.0.1:8088/boot/env/initrd.img");
    String deployed =
        new String(get("/ipxe/52-54-00-00-00-02.ipxe", null).body(), StandardCharsets.UTF_8);
    assertThat(deployed)
        .contains("boots from its local disk")
        .contains("exit")
        .doesNotContain("kernel");
    String unknown =
        new String(get("/ipxe/52-54-00-00-00-03.ipxe", null).body(), StandardCharsets.UTF_8);
    assertThat(unknown).contains("bulwark.mode=enlist");
    assertThat(http.lastScript).containsEntry("52:54:00:00:00:03", BootPurpose.ENLIST);
    assertThat(http.scripts.sum()).isEqualTo(3);
  }

  @Test
  void withoutTheBootEnvironmentTheScriptSaysSoAndExits() throws Exception {
    Files.delete(boot.resolve(BootScripts.KERNEL));
    String script =
        new String(get("/ipxe/52-54-00-00-00-01.ipxe", null).body(), StandardCharsets.UTF_8);
    assertThat(script).contains("not installed on the appliance").contains("exit");
  }

  private HttpResponse<String> post(String path, String body) throws Exception {
    return client.send(
        HttpRequest.newBuilder(URI.create(url(path)))
            .timeout(Duration.ofSeconds(10))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static String token(String script) {
    java.util.regex.Matcher m =
        java.util.regex.Pattern.compile("bulwark.token=([A-Za-z0-9_-]+)").matcher(script);
    assertThat(m.find()).as(script).isTrue();
    return m.group(1);
  }

  @Test
  void aReportIsTakenOnceWithTheTokenOfItsBootAndRefusedOtherwise() throws Exception {
    String script =
        new String(get("/ipxe/52-54-00-00-00-01.ipxe", null).body(), StandardCharsets.UTF_8);
    String token = token(script);
    String query = "?token=" + token + "&mac=52:54:00:00:00:01";

    HttpResponse<String> wrong = post("/report/enlist" + query, "{}");
    assertThat(wrong.statusCode()).as("wrong purpose: " + wrong.body()).isEqualTo(403);
    assertThat(
            post("/report/commission?token=" + token + "&mac=52:54:00:00:00:09", "{}").statusCode())
        .as("another MAC")
        .isEqualTo(403);
    assertThat(post("/report/commission?mac=52:54:00:00:00:01", "{}").statusCode()).isEqualTo(403);
    HttpResponse<String> taken = post("/report/commission" + query, "{\"cpu\":{\"count\":2}}");
    assertThat(taken.statusCode()).as(taken.body()).isEqualTo(200);
    assertThat(taken.body()).isEqualTo("taken: commission of 52:54:00:00:00:01\n");
    assertThat(planner.reports).hasSize(1);
    assertThat(planner.reports.get(0).json()).isEqualTo("{\"cpu\":{\"count\":2}}");
    HttpResponse<String> again = post("/report/commission" + query, "{}");
    assertThat(again.statusCode()).isEqualTo(403);
    assertThat(again.body()).contains("unknown or used");
    // A report the planner cannot take says why, and uses the token up all the same.
    String other =
        token(new String(get("/ipxe/52-54-00-00-00-01.ipxe", null).body(), StandardCharsets.UTF_8));
    HttpResponse<String> bad =
        post("/report/commission?token=" + other + "&mac=52:54:00:00:00:01", "not json");
    assertThat(bad.statusCode()).isEqualTo(422);
    assertThat(bad.body()).contains("not a JSON object");
    assertThat(planner.reports).hasSize(1);
    // Each boot gets a token of its own.
    assertThat(other).isNotEqualTo(token);
  }

  @Test
  void logLinesAreTakenWithTheTokenOfTheBootWithoutUsingItUp() throws Exception {
    String token =
        token(new String(get("/ipxe/52-54-00-00-00-01.ipxe", null).body(), StandardCharsets.UTF_8));
    String query = "?token=" + token + "&mac=52:54:00:00:00:01";
    HttpResponse<String> logged = post("/log" + query, "bulwark: eth0 is up\nbulwark: test memory");
    assertThat(logged.statusCode()).as(logged.body()).isEqualTo(204);
    assertThat(post("/log?token=" + token + "&mac=52:54:00:00:00:09", "x").statusCode())
        .as("another MAC")
        .isEqualTo(403);
    assertThat(post("/log?mac=52:54:00:00:00:01", "x").statusCode()).isEqualTo(403);
    assertThat(planner.logged)
        .containsExactly(
            "52:54:00:00:00:01 bulwark: eth0 is up", "52:54:00:00:00:01 bulwark: test memory");
    assertThat(post("/report/commission" + query, "{}").statusCode())
        .as("the token still takes the boot's report")
        .isEqualTo(200);
    assertThat(post("/log" + query, "bulwark: done").statusCode())
        .as("the boot's last lines, after its report")
        .isEqualTo(204);
    assertThat(planner.logged).hasSize(3);
  }

  @Test
  void aDeploymentsCloudInitSeedIsServedUnderItsToken() throws Exception {
    String token = "A".repeat(43);
    planner.userData.put(token, "#cloud-config\nhostname: gpu-a07\n");

    HttpResponse<byte[]> seed = get("/metadata/" + token + "/user-data", null);
    assertThat(seed.statusCode()).isEqualTo(200);
    assertThat(new String(seed.body(), StandardCharsets.UTF_8))
        .isEqualTo("#cloud-config\nhostname: gpu-a07\n");
    assertThat(get("/metadata/" + "B".repeat(43) + "/user-data", null).statusCode()).isEqualTo(404);
    assertThat(get("/metadata/" + token + "/passwd", null).statusCode()).isEqualTo(404);
    assertThat(get("/metadata/short/user-data", null).statusCode()).isEqualTo(404);
  }

  @Test
  void onlyGetAndHeadOfKnownPathsAreServed() throws Exception {
    assertThat(get("/boot/../../etc/passwd", null).statusCode()).isEqualTo(404);
    assertThat(get("/boot/env", null).statusCode()).isEqualTo(404);
    assertThat(get("/ipxe/not-a-mac.ipxe", null).statusCode()).isEqualTo(404);
    assertThat(get("/api/v1/machines", null).statusCode()).isEqualTo(404);
    HttpResponse<String> post =
        client.send(
            HttpRequest.newBuilder(URI.create(url("/boot/env/vmlinuz")))
                .timeout(Duration.ofSeconds(10))
                .POST(HttpRequest.BodyPublishers.ofString("x"))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(post.statusCode()).isEqualTo(405);
    HttpResponse<Void> head =
        client.send(
            HttpRequest.newBuilder(URI.create(url("/boot/env/vmlinuz")))
                .timeout(Duration.ofSeconds(10))
                .method("HEAD", HttpRequest.BodyPublishers.noBody())
                .build(),
            HttpResponse.BodyHandlers.discarding());
    assertThat(head.statusCode()).isEqualTo(200);
    assertThat(head.headers().firstValueAsLong("Content-Length")).hasValue(kernel.length);
  }
}
