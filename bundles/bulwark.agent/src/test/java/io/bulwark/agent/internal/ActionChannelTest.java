package io.bulwark.agent.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bulwark.lib.pki.Certificates;
import io.bulwark.lib.pki.EcKeys;
import io.bulwark.lib.pki.FipsProviders;
import io.bulwark.lib.pki.MutualTls;
import io.bulwark.lib.pki.SignedMessages;
import io.bulwark.testing.TypedConfig;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyPair;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The node agent's action channel over real mutual TLS (BCJSSE, FIPS approved-only). No GPU exists
 * where this runs: nvidia-smi and dcgmi are shell scripts that record their arguments and print
 * what the real tools print (nvidia-smi's reset message; a dcgmi diag -j document).
 */
class ActionChannelTest {
  private static SecureRandom random;
  private static Certificates.Identity authority;
  private static Certificates.Identity appliance;
  private static Certificates.Identity otherAgent;
  @TempDir Path dir;
  private Vertx vertx;
  private ActionChannel channel;
  private AgentIdentity identity;
  private Path calls;

  @BeforeAll
  static void pki() {
    random = FipsProviders.establish().getDefaultSecureRandom();
    org.bouncycastle.crypto.CryptoServicesRegistrar.setSecureRandom(random);
    Instant now = Instant.now();
    authority = Certificates.authority("Bulwark agent authority", now, Duration.ofDays(30), random);
    appliance = issued("Bulwark appliance", Certificates.Usage.CLIENT);
    otherAgent = issued("gpu-a08", Certificates.Usage.SERVER_AND_CLIENT);
  }

  private static Certificates.Identity issued(String cn, Certificates.Usage usage) {
    KeyPair k = EcKeys.generate(random);
    return new Certificates.Identity(
        k.getPrivate(),
        Certificates.issue(
            authority,
            k.getPublic(),
            cn,
            List.of("127.0.0.1"),
            usage,
            Instant.now(),
            Duration.ofDays(5),
            random));
  }

  @BeforeEach
  void start() throws Exception {
    KeyPair k = EcKeys.generate(random);
    X509Certificate mine =
        Certificates.issue(
            authority,
            k.getPublic(),
            "gpu-a07",
            List.of("gpu-a07", "127.0.0.1"),
            Certificates.Usage.SERVER_AND_CLIENT,
            Instant.now(),
            Duration.ofDays(5),
            random);
    identity =
        new AgentIdentity(k.getPrivate(), mine, authority.certificate(), appliance.certificate());
    identity.save(dir.resolve("identity"));
    calls = dir.resolve("calls.log");
    script(
        "nvidia-smi",
        "echo \"$*\" >> "
            + calls
            + "\nsleep 0.2\necho 'GPU 00000000:3B:00.0 was successfully reset.'\necho 'All done.'");
    script(
        "dcgmi",
        "echo \"$*\" >> "
            + calls
            + "\ncat <<'JSON'\n{\"DCGM GPU Diagnostic\":{\"test_categories\":[{\"category\":\"Hardware\",\"tests\":[{\"name\":\"GPU Memory\",\"results\":[{\"gpu_ids\":\"3\",\"status\":\"Fail\",\"warnings\":[{\"warning\":\"DBE detected\"}]}]},{\"name\":\"Diagnostic\",\"results\":[{\"status\":\"Pass\"}]}]}]}}\nJSON\nexit 226");
    vertx = Vertx.vertx();
    channel =
        new ActionChannel(
            vertx,
            TypedConfig.of(
                ActionChannelConfig.class,
                Map.of(
                    "bindAddress",
                    "127.0.0.1",
                    "port",
                    0,
                    "hostname",
                    "gpu-a07",
                    "identityDirectory",
                    dir.resolve("identity").toString(),
                    "nvidiaSmi",
                    dir.resolve("nvidia-smi").toString(),
                    "dcgmi",
                    dir.resolve("dcgmi").toString(),
                    "auditFile",
                    dir.resolve("audit.jsonl").toString())),
            "127.0.0.1");
  }

  @AfterEach
  void stop() {
    channel.stop();
    vertx.close();
  }

  private void script(String name, String body) throws Exception {
    Path p = dir.resolve(name);
    Files.writeString(p, "#!/bin/sh\n" + body + "\n");
    Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwx------"));
  }

  record Answer(int status, JsonObject body) {}

  private Answer call(
      Certificates.Identity as,
      String method,
      String path,
      String body,
      String nonce,
      long millis,
      boolean tamper)
      throws Exception {
    SSLContext ctx =
        MutualTls.context(
            as.privateKey(), List.of(as.certificate()), authority.certificate(), random);
    HttpClient http =
        HttpClient.newBuilder().sslContext(ctx).sslParameters(MutualTls.parameters(ctx)).build();
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    String sig =
        SignedMessages.sign(
            as.privateKey(),
            SignedMessages.requestText(
                method, path, millis, nonce, tamper ? "{}".getBytes() : bytes),
            random);
    HttpResponse<byte[]> r =
        http.send(
            HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + channel.port() + path))
                .header(SignedMessages.DATE, Long.toString(millis))
                .header(SignedMessages.NONCE, nonce)
                .header(SignedMessages.SIGNATURE, sig)
                .method(method, HttpRequest.BodyPublishers.ofByteArray(bytes))
                .build(),
            HttpResponse.BodyHandlers.ofByteArray());
    long date = Long.parseLong(r.headers().firstValue(SignedMessages.DATE).orElseThrow());
    assertTrue(
        SignedMessages.verify(
            identity.certificate().getPublicKey(),
            SignedMessages.answerText(r.statusCode(), nonce, date, r.body()),
            r.headers().firstValue(SignedMessages.SIGNATURE).orElseThrow()),
        "the answer is signed by the agent");
    return new Answer(r.statusCode(), new JsonObject(new String(r.body(), StandardCharsets.UTF_8)));
  }

  private Answer call(String method, String path, String body) throws Exception {
    return call(
        appliance,
        method,
        path,
        body,
        SignedMessages.nonce(random),
        System.currentTimeMillis(),
        false);
  }

  private JsonObject awaitEnd(String id) throws Exception {
    for (int i = 0; i < 100; i++) {
      Answer a = call("GET", "/v1/actions/" + id, "");
      if (!"running".equals(a.body().getString("state"))) {
        return a.body();
      }
      Thread.sleep(100);
    }
    throw new AssertionError("the action did not end");
  }

  @Test
  void aSignedResetRunsNvidiaSmiOnceForTheGpuAndIsAudited() throws Exception {
    assertEquals(
        List.of("gpu-reset", "dcgm-diag"),
        call("GET", "/v1/capabilities", "").body().getJsonArray("actions").getList());
    String req =
        new JsonObject()
            .put("requestId", "run-1.gpu-reset.g3.a1")
            .put("action", "gpu-reset")
            .put("gpu", 3)
            .put("level", 0)
            .encode();
    Answer started = call("POST", "/v1/actions", req);
    assertEquals(202, started.status());
    assertEquals(
        200, call("POST", "/v1/actions", req).status(), "the same request id is the same action");
    JsonObject done = awaitEnd("run-1.gpu-reset.g3.a1");
    assertEquals("succeeded", done.getString("state"), done.encode());
    assertEquals(List.of("--gpu-reset -i 3"), Files.readAllLines(calls));
    List<String> audit = Files.readAllLines(dir.resolve("audit.jsonl"));
    assertTrue(audit.size() >= 4);
    for (int i = 1; i < audit.size(); i++) {
      assertEquals(
          SignedMessages.sha384(audit.get(i - 1).getBytes(StandardCharsets.UTF_8)),
          new JsonObject(audit.get(i)).getString("prev"),
          "line " + i + " links to the one before");
    }
    assertEquals("Bulwark appliance", new JsonObject(audit.get(1)).getString("peer"));
  }

  @Test
  void aFailedDiagnosticNamesItsTest() throws Exception {
    String req =
        new JsonObject()
            .put("requestId", "d1")
            .put("action", "dcgm-diag")
            .put("gpu", 3)
            .put("level", 2)
            .encode();
    assertEquals(202, call("POST", "/v1/actions", req).status());
    JsonObject done = awaitEnd("d1");
    assertEquals("failed", done.getString("state"));
    assertTrue(done.getString("summary").contains("GPU Memory"), done.getString("summary"));
    assertEquals(List.of("diag -r 2 -i 3 -j"), Files.readAllLines(calls));
    List<String> failed = new ArrayList<>();
    assertTrue(
        ActionRunner.diagFailures(
            "{\"a\":{\"tests\":[{\"name\":\"PCIe\",\"results\":[{\"status\":\"Pass\"}]}]}}",
            failed));
    assertTrue(failed.isEmpty());
  }

  @Test
  void unsignedReplayedStaleAndForeignRequestsAreRefused() throws Exception {
    String nonce = SignedMessages.nonce(random);
    long now = System.currentTimeMillis();
    assertEquals(200, call(appliance, "GET", "/v1/capabilities", "", nonce, now, false).status());
    assertEquals(
        401,
        call(appliance, "GET", "/v1/capabilities", "", nonce, now, false).status(),
        "replayed");
    String req =
        new JsonObject().put("requestId", "x1").put("action", "gpu-reset").put("gpu", 1).encode();
    assertEquals(
        401,
        call(appliance, "POST", "/v1/actions", req, SignedMessages.nonce(random), now, true)
            .status(),
        "tampered");
    assertEquals(
        401,
        call(
                appliance,
                "GET",
                "/v1/capabilities",
                "",
                SignedMessages.nonce(random),
                now - 600_000,
                false)
            .status(),
        "stale");
    assertEquals(
        403,
        call(otherAgent, "GET", "/v1/capabilities", "", SignedMessages.nonce(random), now, false)
            .status(),
        "another agent");
    Certificates.Identity foreignCa =
        Certificates.authority("Elsewhere", Instant.now(), Duration.ofDays(5), random);
    KeyPair k = EcKeys.generate(random);
    Certificates.Identity stranger =
        new Certificates.Identity(
            k.getPrivate(),
            Certificates.issue(
                foreignCa,
                k.getPublic(),
                "Bulwark appliance",
                List.of(),
                Certificates.Usage.CLIENT,
                Instant.now(),
                Duration.ofDays(5),
                random));
    assertThrows(
        Exception.class,
        () ->
            call(
                stranger, "GET", "/v1/capabilities", "", SignedMessages.nonce(random), now, false));
    assertTrue(Files.readAllLines(calls.getParent().resolve("audit.jsonl")).size() >= 5);
    assertTrue(Files.notExists(calls), "no tool ran");
  }

  @Test
  void aMissingToolIsNotOfferedAndRefused() throws Exception {
    Files.delete(dir.resolve("dcgmi"));
    assertEquals(
        List.of("gpu-reset"),
        call("GET", "/v1/capabilities", "").body().getJsonArray("actions").getList());
    Answer a =
        call(
            "POST",
            "/v1/actions",
            new JsonObject()
                .put("requestId", "d2")
                .put("action", "dcgm-diag")
                .put("gpu", 0)
                .put("level", 1)
                .encode());
    assertEquals(409, a.status());
    assertTrue(a.body().getString("detail").contains("not installed"), a.body().encode());
  }

  @Test
  void withoutAnIdentityOrEnrolmentSettingsTheChannelDoesNotStart() {
    IllegalStateException e =
        assertThrows(
            IllegalStateException.class,
            () ->
                new ActionChannel(
                    vertx,
                    TypedConfig.of(
                        ActionChannelConfig.class,
                        Map.of(
                            "bindAddress",
                            "127.0.0.1",
                            "port",
                            0,
                            "hostname",
                            "gpu-a09",
                            "identityDirectory",
                            dir.resolve("none").toString(),
                            "auditFile",
                            dir.resolve("a2.jsonl").toString())),
                    "127.0.0.1"));
    assertTrue(e.getMessage().contains("not enrolled"), e.getMessage());
  }

  @Test
  void theChannelListensOnItsBindAddressOnly() throws Exception {
    Path tcp = Path.of("/proc/net/tcp");
    org.junit.jupiter.api.Assumptions.assumeTrue(Files.isReadable(tcp), "Linux's socket table");
    List<String> listening = listeningAddresses(channel.port());
    assertEquals(List.of("127.0.0.1"), listening, "the sockets listening on " + channel.port());
  }

  @Test
  void withoutABindAddressOfItsOwnTheChannelListensWhereTheAgentDoes() throws Exception {
    ActionChannel own =
        new ActionChannel(
            vertx,
            TypedConfig.of(
                ActionChannelConfig.class,
                Map.of(
                    "port",
                    0,
                    "hostname",
                    "gpu-a07",
                    "identityDirectory",
                    dir.resolve("identity").toString(),
                    "auditFile",
                    dir.resolve("a4.jsonl").toString())),
            "127.0.0.1");
    try {
      assertEquals(List.of("127.0.0.1"), listeningAddresses(own.port()));
    } finally {
      own.stop();
    }
  }

  @Test
  void aBindAddressThatIsNoIpAddressIsRefusedNamingTheSetting() {
    for (String bad : List.of("not an address", "gpu-a07.example", "127.0.0.1:9401", "256.0.0.1")) {
      IllegalStateException e =
          assertThrows(
              IllegalStateException.class,
              () ->
                  new ActionChannel(
                      vertx,
                      TypedConfig.of(
                          ActionChannelConfig.class,
                          Map.of(
                              "bindAddress",
                              bad,
                              "port",
                              0,
                              "hostname",
                              "gpu-a07",
                              "identityDirectory",
                              dir.resolve("identity").toString(),
                              "auditFile",
                              dir.resolve("a3.jsonl").toString())),
                      "127.0.0.1"),
              bad);
      assertTrue(
          e.getMessage().contains("bindAddress '" + bad + "' of io.bulwark.agent.actions"),
          e.getMessage());
      assertTrue(e.getMessage().contains("an IP address of this node"), e.getMessage());
    }
  }

  /**
   * The local addresses of the TCP sockets listening on {@code port}, read from Linux's socket
   * tables (IPv4 and IPv6).
   */
  private static List<String> listeningAddresses(int port) throws Exception {
    List<String> out = new ArrayList<>();
    for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
      Path p = Path.of(table);
      if (!Files.isReadable(p)) {
        continue;
      }
      for (String line : Files.readAllLines(p)) {
        String[] f = line.strip().split("\\s+");
        if (f.length < 4 || !f[1].contains(":") || !f[3].equals("0A")) {
          continue;
        }
        String[] local = f[1].split(":");
        if (Integer.parseInt(local[1], 16) != port) {
          continue;
        }
        byte[] raw = java.util.HexFormat.of().parseHex(local[0]);
        // the kernel prints each 32-bit word in host (little-endian) order
        for (int i = 0; i < raw.length; i += 4) {
          byte a = raw[i];
          byte b = raw[i + 1];
          raw[i] = raw[i + 3];
          raw[i + 1] = raw[i + 2];
          raw[i + 2] = b;
          raw[i + 3] = a;
        }
        out.add(java.net.InetAddress.getByAddress(raw).getHostAddress());
      }
    }
    return out;
  }
}
