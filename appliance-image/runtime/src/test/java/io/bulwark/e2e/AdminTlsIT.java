package io.bulwark.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The admin plane of the exported demo jar as an assessor probes it: only HTTPS, TLS 1.3 and 1.2
 * with FIPS-approved AES-GCM suites through BCJSSE (checked with the system's openssl s_client),
 * the security headers on every response, and the crypto module reported by the health API.
 */
@ExtendWith(SharedAppliance.class)
class AdminTlsIT {
  private static RunningAppliance bulwark;

  @BeforeAll
  static void join(RunningAppliance shared) {
    bulwark = shared;
  }

  @Test
  void approvedSuitesConnect() throws Exception {
    assertThat(probe("-tls1_3", "-ciphersuites", "TLS_AES_256_GCM_SHA384"))
        .contains("TLSv1.3")
        .contains("TLS_AES_256_GCM_SHA384");
    assertThat(probe("-tls1_3", "-ciphersuites", "TLS_AES_128_GCM_SHA256"))
        .contains("TLS_AES_128_GCM_SHA256");
    assertThat(probe("-tls1_2", "-cipher", "ECDHE-ECDSA-AES256-GCM-SHA384"))
        .contains("ECDHE-ECDSA-AES256-GCM-SHA384");
  }

  @Test
  void oldProtocolsWeakAndAnonymousSuitesAreRefused() throws Exception {
    assertRefused(probe("-tls1_1", "-cipher", "DEFAULT:@SECLEVEL=0"));
    assertRefused(probe("-tls1_3", "-ciphersuites", "TLS_CHACHA20_POLY1305_SHA256"));
    assertRefused(probe("-tls1_2", "-cipher", "ECDHE-ECDSA-CHACHA20-POLY1305"));
    assertRefused(probe("-tls1_2", "-cipher", "ECDHE-ECDSA-AES256-SHA"));
    assertRefused(probe("-tls1_2", "-cipher", "aNULL:@SECLEVEL=0"));
  }

  @Test
  void plainHttpIsNotServed() throws Exception {
    java.net.http.HttpClient plain =
        java.net.http.HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    var request =
        java.net.http.HttpRequest.newBuilder(
                java.net.URI.create("http://127.0.0.1:" + bulwark.httpsPort + "/api/v1/health"))
            .timeout(Duration.ofSeconds(5))
            .build();
    try {
      HttpResponse<String> r = plain.send(request, HttpResponse.BodyHandlers.ofString());
      assertThat(r.statusCode()).as("plain HTTP on the TLS port").isNotEqualTo(200);
    } catch (java.io.IOException refused) {
      // the TLS listener drops a plain HTTP request: what we want
    }
  }

  @Test
  void everyResponseCarriesTheSecurityHeaders() throws Exception {
    for (String path : List.of("/", "/js/app.js", "/api/v1/health", "/api/v1/no-such-thing")) {
      HttpResponse<String> r = bulwark.get(path);
      assertThat(r.headers().firstValue("strict-transport-security"))
          .as("HSTS on %s", path)
          .hasValueSatisfying(v -> assertThat(v).contains("max-age="));
      assertThat(r.headers().firstValue("content-security-policy"))
          .as("CSP on %s", path)
          .hasValueSatisfying(
              v -> assertThat(v).contains("default-src 'none'").contains("frame-ancestors 'none'"));
      assertThat(r.headers().firstValue("x-content-type-options")).contains("nosniff");
    }
  }

  @Test
  void healthReportsTheFipsModuleInApprovedOnlyModeAndTheDevelopmentFlag() throws Exception {
    JsonObject security =
        new JsonObject(bulwark.get("/api/v1/health").body()).getJsonObject("security");
    JsonObject module = security.getJsonObject("cryptoModule");
    assertThat(module.getString("name")).isEqualTo("BouncyCastle FIPS");
    assertThat(module.getString("version")).startsWith("2.1");
    assertThat(module.getBoolean("approvedOnly")).isTrue();
    assertThat(module.getBoolean("selfTestsPassed")).isTrue();
    // The demo runs without a TPM, in the flagged development mode.
    assertThat(security.getBoolean("developmentMode")).isTrue();
    assertThat(bulwark.console()).contains("DEVELOPMENT MODE");
  }

  @Test
  void loginsAreAuditedAndTheAdminPasswordAppearsNowhere() throws Exception {
    HttpResponse<String> r = bulwark.get("/api/v1/audit?action=session.login&outcome=success");
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(new JsonObject(r.body()).getJsonArray("records")).isNotEmpty();
    assertThat(r.body()).contains("\"actor\":\"admin\"");
    HttpResponse<String> anonymous =
        PinnedCertificate.client(bulwark.log)
            .send(
                java.net.http.HttpRequest.newBuilder(
                        java.net.URI.create(bulwark.baseUrl() + "/api/v1/audit"))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(anonymous.statusCode()).isEqualTo(401);

    // No secret in the clear: not in the console, not in any file the appliance wrote.
    java.nio.file.Path work = bulwark.dataDir.getParent();
    java.util.List<java.nio.file.Path> files = new java.util.ArrayList<>();
    // The store rotates its write-ahead log files while the appliance runs: a file may vanish
    // between being listed and being read.
    java.nio.file.Files.walkFileTree(
        work,
        new java.nio.file.SimpleFileVisitor<>() {
          @Override
          public java.nio.file.FileVisitResult visitFile(
              java.nio.file.Path file, java.nio.file.attribute.BasicFileAttributes attributes) {
            if (attributes.isRegularFile()) {
              files.add(file);
            }
            return java.nio.file.FileVisitResult.CONTINUE;
          }

          @Override
          public java.nio.file.FileVisitResult visitFileFailed(
              java.nio.file.Path file, java.io.IOException e) throws java.io.IOException {
            if (e instanceof java.nio.file.NoSuchFileException) {
              return java.nio.file.FileVisitResult.CONTINUE;
            }
            throw e;
          }
        });
    assertThat(files).as("files the appliance wrote").isNotEmpty();
    for (java.nio.file.Path f : files) {
      byte[] bytes;
      try {
        bytes = java.nio.file.Files.readAllBytes(f);
      } catch (java.nio.file.NoSuchFileException rotatedAway) {
        continue;
      }
      String text = new String(bytes, StandardCharsets.ISO_8859_1);
      assertThat(text).as("contents of %s", f).doesNotContain(RunningAppliance.ADMIN_PASSWORD);
    }
  }

  @Test
  void theSignedAuditExportVerifiesWithOpenssl() throws Exception {
    HttpResponse<String> export = bulwark.get("/api/v1/audit/export?format=jsonl");
    assertThat(export.statusCode()).isEqualTo(200);
    assertThat(export.body()).contains("session.login");
    String signature = export.headers().firstValue("x-bulwark-signature").orElseThrow();
    HttpResponse<String> key = bulwark.get("/api/v1/audit/public-key");
    assertThat(key.body()).startsWith("-----BEGIN PUBLIC KEY-----");
    java.nio.file.Path dir = java.nio.file.Files.createTempDirectory("audit-export");
    java.nio.file.Path body =
        java.nio.file.Files.write(
            dir.resolve("audit.jsonl"), export.body().getBytes(StandardCharsets.UTF_8));
    java.nio.file.Path sig =
        java.nio.file.Files.write(
            dir.resolve("audit.sig"), java.util.Base64.getDecoder().decode(signature));
    java.nio.file.Path pub = java.nio.file.Files.writeString(dir.resolve("audit.pem"), key.body());
    assertThat(
            openssl(
                "dgst",
                "-sha384",
                "-verify",
                pub.toString(),
                "-signature",
                sig.toString(),
                body.toString()))
        .contains("Verified OK");
    java.nio.file.Files.write(body, (export.body() + " ").getBytes(StandardCharsets.UTF_8));
    assertThat(
            openssl(
                "dgst",
                "-sha384",
                "-verify",
                pub.toString(),
                "-signature",
                sig.toString(),
                body.toString()))
        .contains("Verification failure");
    assertThat(bulwark.get("/api/v1/audit/verify").body()).contains("\"intact\":true");
  }

  @Test
  void secretAccessesAndSettingChangesAreAudited() throws Exception {
    // The TLS keystore password and the token pepper are read at start, before the audit log
    // opened; they are recorded as soon as it did, with the component that read them.
    String reads = bulwark.get("/api/v1/audit?action=secret.read&limit=1000").body();
    assertThat(reads)
        .contains("\"target\":\"tls.admin.keystore-password\"")
        .contains("bulwark.security/");
    // The settings in effect are recorded at every start.
    String settings = bulwark.get("/api/v1/audit?action=settings.in-effect&limit=10").body();
    assertThat(new JsonObject(settings).getJsonArray("records")).isNotEmpty();
    assertThat(settings).contains("configuration-admin");
    // The values recorded are those in effect, after the BULWARK_* overrides, not the shipped ones.
    JsonObject details =
        new JsonObject(settings).getJsonArray("records").getJsonObject(0).getJsonObject("details");
    assertThat(details.getString("io.bulwark.web.httpsPort"))
        .isEqualTo(Integer.toString(bulwark.httpsPort));
    assertThat(details.getString("io.bulwark.store.dataDir")).isEqualTo(bulwark.dataDir.toString());
  }

  @Test
  void anApiTokenWorksUntilRevokedAndItsIssueAndRevocationAreAudited() throws Exception {
    JsonObject token = Runs.issueToken(bulwark, "tls-ci-" + System.nanoTime(), "auditor");
    java.net.http.HttpClient automation = PinnedCertificate.client(bulwark.log);
    java.util.function.Function<String, Integer> asToken =
        path -> {
          try {
            return automation
                .send(
                    java.net.http.HttpRequest.newBuilder(
                            java.net.URI.create(bulwark.baseUrl() + path))
                        .header("Authorization", "Bearer " + token.getString("token"))
                        .build(),
                    HttpResponse.BodyHandlers.ofString())
                .statusCode();
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
        };
    assertThat(asToken.apply("/api/v1/nodes")).isEqualTo(200);
    assertThat(asToken.apply("/api/v1/users")).as("auditors read users").isEqualTo(200);
    assertThat(
            bulwark
                .send("DELETE", bulwark.baseUrl() + "/api/v1/tokens/" + token.getString("id"), null)
                .statusCode())
        .isEqualTo(204);
    assertThat(asToken.apply("/api/v1/nodes")).as("after revocation").isEqualTo(401);

    assertThat(bulwark.get("/api/v1/audit?action=token.create&limit=1000").body())
        .contains(token.getString("id"));
    assertThat(bulwark.get("/api/v1/audit?action=token.revoke&limit=1000").body())
        .contains(token.getString("id"));
    assertThat(bulwark.get("/api/v1/audit?limit=1000").body())
        .doesNotContain(token.getString("token"));
  }

  private static String openssl(String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of("/usr/bin/openssl"));
    command.addAll(List.of(args));
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(15, TimeUnit.SECONDS)).isTrue();
    return out;
  }

  private static void assertRefused(String output) {
    assertThat(output)
        .as("openssl output")
        .doesNotContain("Cipher is TLS_")
        .doesNotContainPattern("Cipher is (?!\\(NONE\\))");
  }

  /** Runs openssl s_client against the listener; returns its exit status and output. */
  private static String probe(String... options) throws Exception {
    List<String> command =
        new ArrayList<>(
            List.of(
                "timeout",
                "10",
                "/usr/bin/openssl",
                "s_client",
                "-connect",
                "127.0.0.1:" + bulwark.httpsPort,
                "-servername",
                "localhost"));
    command.addAll(List.of(options));
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    p.getOutputStream().close();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(15, TimeUnit.SECONDS)).isTrue();
    return "exit " + p.exitValue() + "\n" + out;
  }
}
