package io.bulwark.agents.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bulwark.api.agent.ActionRequest;
import io.bulwark.api.agent.ActionResult;
import io.bulwark.api.agent.AgentAction;
import io.bulwark.api.agent.AgentChannelException;
import io.bulwark.api.audit.AuditRecord;
import io.bulwark.lib.pki.Certificates;
import io.bulwark.lib.pki.EcKeys;
import io.bulwark.lib.pki.FipsProviders;
import io.bulwark.lib.pki.MutualTls;
import io.bulwark.lib.pki.SignedMessages;
import io.bulwark.store.internal.MapDbRecordStore;
import io.bulwark.testing.InMemorySecrets;
import io.bulwark.testing.RecordingAuditLog;
import io.vertx.core.Vertx;
import io.vertx.core.http.ClientAuth;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.JdkSSLEngineOptions;
import io.vertx.core.net.KeyCertOptions;
import io.vertx.core.net.TrustOptions;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The appliance's side of the agent channel: one-time enrolment tokens, certificates issued from
 * the node's own request, revocation, and the signed client. The agent answering here is a protocol
 * double written to the agent's wire contract (the real agent is tested against the same contract
 * in bulwark.agent; the appliance end-to-end test pairs the two).
 */
class AgentServiceTest {
  private static SecureRandom random;
  private static Vertx vertx;
  @TempDir Path dir;

  @BeforeAll
  static void setUp() {
    random = FipsProviders.establish().getDefaultSecureRandom();
    org.bouncycastle.crypto.CryptoServicesRegistrar.setSecureRandom(random);
    vertx = Vertx.vertx();
  }

  @AfterAll
  static void tearDown() {
    vertx.close();
  }

  @Test
  void aTokenEnrolsItsNodeOnceAndTheAuthoritySurvivesARestart() throws Exception {
    InMemorySecrets secrets = new InMemorySecrets();
    try (MapDbRecordStore store = MapDbRecordStore.inFolder(dir)) {
      AgentService agents =
          new AgentService(store, secrets, random, new RecordingAuditLog(), Clock.systemUTC());
      String token = agents.issueToken("gpu-a07", Duration.ofMinutes(10), "admin");
      KeyPair keys = EcKeys.generate(random);
      String wrongName = Certificates.request(keys, "gpu-a08", random);
      assertThrows(
          IllegalArgumentException.class, () -> agents.enrol(token, wrongName, "10.0.0.7:9401"));
      AgentService.Enrolment e =
          agents.enrol(token, Certificates.request(keys, "gpu-a07", random), "10.0.0.7:9401");
      assertEquals("gpu-a07", Certificates.commonName(e.certificate()));
      assertEquals(keys.getPublic(), e.certificate().getPublicKey());
      e.certificate().verify(agents.authorityCertificate().getPublicKey(), "BCFIPS");
      assertEquals(
          List.of("1.3.6.1.5.5.7.3.1", "1.3.6.1.5.5.7.3.2"), e.certificate().getExtendedKeyUsage());
      assertThrows(
          SecurityException.class,
          () ->
              agents.enrol(token, Certificates.request(keys, "gpu-a07", random), "10.0.0.7:9401"));
      assertThrows(
          SecurityException.class,
          () ->
              agents.enrol(
                  "bwe_guess", Certificates.request(keys, "gpu-a07", random), "10.0.0.7:9401"));
      assertTrue(agents.agent("gpu-a07").orElseThrow().usable(Instant.now()));
      String authority = Certificates.fingerprint(agents.authorityCertificate());
      // The authority's key is a secret, never a plain store record; a restart keeps it.
      assertTrue(secrets.names().contains(AgentAuthority.AUTHORITY_SECRET));
      AgentService again =
          new AgentService(store, secrets, random, new RecordingAuditLog(), Clock.systemUTC());
      assertEquals(authority, Certificates.fingerprint(again.authorityCertificate()));
      assertEquals(1, again.agents().size());
    }
  }

  @Test
  void anExpiredTokenIsRefused() throws Exception {
    try (MapDbRecordStore store = MapDbRecordStore.inFolder(dir)) {
      AtomicReference<Instant> now = new AtomicReference<>(Instant.now());
      Clock clock =
          new Clock() {
            @Override
            public java.time.ZoneId getZone() {
              return java.time.ZoneOffset.UTC;
            }

            @Override
            public Clock withZone(java.time.ZoneId zone) {
              return this;
            }

            @Override
            public Instant instant() {
              return now.get();
            }
          };
      AgentService agents =
          new AgentService(store, new InMemorySecrets(), random, new RecordingAuditLog(), clock);
      String token = agents.issueToken("gpu-a07", Duration.ofMinutes(10), "admin");
      now.set(now.get().plus(Duration.ofMinutes(11)));
      KeyPair keys = EcKeys.generate(random);
      assertThrows(
          SecurityException.class,
          () ->
              agents.enrol(token, Certificates.request(keys, "gpu-a07", random), "10.0.0.7:9401"));
      assertThrows(
          IllegalArgumentException.class,
          () -> agents.issueToken("bad name!", Duration.ofMinutes(5), "a"));
    }
  }

  @Test
  void actionsAreSignedCheckedAndAuditedAndARevokedAgentIsNeverCalled() throws Exception {
    RecordingAuditLog audit = new RecordingAuditLog();
    try (MapDbRecordStore store = MapDbRecordStore.inFolder(dir)) {
      AgentService agents =
          new AgentService(store, new InMemorySecrets(), random, audit, Clock.systemUTC());
      KeyPair keys = EcKeys.generate(random);
      AgentDouble agent = new AgentDouble(agents, keys, "gpu-a07");
      try {
        String token = agents.issueToken("gpu-a07", Duration.ofMinutes(10), "admin");
        AgentService.Enrolment e =
            agents.enrol(
                token,
                Certificates.request(keys, "gpu-a07", random),
                "127.0.0.1:" + agent.port(e0 -> {}));
        agent.certificate = e.certificate();
        agent.restart();
        assertEquals(
            Set.of(AgentAction.GPU_RESET, AgentAction.DCGM_DIAG), agents.capabilities("gpu-a07"));
        ActionResult r =
            agents.start(
                "gpu-a07", new ActionRequest("run-1.gpu-reset.g3.a1", AgentAction.GPU_RESET, 3, 0));
        assertEquals(ActionResult.State.SUCCEEDED, r.state());
        assertEquals(3, r.gpu());
        AuditRecord last = audit.records.get(audit.records.size() - 1);
        assertEquals("agent.action-start", last.event().action());
        assertFalse(last.event().details().get("requestSignature").isBlank());
        assertFalse(last.event().details().get("answerSignature").isBlank());

        agent.badSignature = true;
        AgentChannelException bad =
            assertThrows(AgentChannelException.class, () -> agents.capabilities("gpu-a07"));
        assertEquals(AgentChannelException.Kind.BAD_ANSWER, bad.kind());
        agent.badSignature = false;

        agents.revoke("gpu-a07", "admin");
        int calls = agent.calls;
        AgentChannelException revoked =
            assertThrows(AgentChannelException.class, () -> agents.capabilities("gpu-a07"));
        assertEquals(AgentChannelException.Kind.NOT_ENROLLED, revoked.kind());
        assertEquals(calls, agent.calls);
      } finally {
        agent.close();
      }
    }
  }

  @Test
  void anotherNodesCertificateIsNotTheEnrolledAgent() throws Exception {
    try (MapDbRecordStore store = MapDbRecordStore.inFolder(dir)) {
      AgentService agents =
          new AgentService(
              store, new InMemorySecrets(), random, new RecordingAuditLog(), Clock.systemUTC());
      KeyPair mine = EcKeys.generate(random);
      KeyPair other = EcKeys.generate(random);
      AgentDouble impostor = new AgentDouble(agents, other, "gpu-a08");
      try {
        int port = impostor.port(x -> {});
        agents.enrol(
            agents.issueToken("gpu-a07", Duration.ofMinutes(5), "a"),
            Certificates.request(mine, "gpu-a07", random),
            "127.0.0.1:" + port);
        impostor.certificate =
            agents
                .enrol(
                    agents.issueToken("gpu-a08", Duration.ofMinutes(5), "a"),
                    Certificates.request(other, "gpu-a08", random),
                    "127.0.0.1:" + port)
                .certificate();
        impostor.restart();
        AgentChannelException e =
            assertThrows(AgentChannelException.class, () -> agents.capabilities("gpu-a07"));
        assertEquals(AgentChannelException.Kind.BAD_ANSWER, e.kind());
        assertTrue(e.getMessage().contains("not the one enrolled"), e.getMessage());
      } finally {
        impostor.close();
      }
    }
  }

  /** An agent speaking the channel's wire contract: mutual TLS, signed requests and answers. */
  private static final class AgentDouble {
    final AgentService agents;
    final KeyPair keys;
    final String node;
    X509Certificate certificate;
    HttpServer server;
    int fixedPort;
    volatile boolean badSignature;
    volatile int calls;

    AgentDouble(AgentService agents, KeyPair keys, String node) {
      this.agents = agents;
      this.keys = keys;
      this.node = node;
    }

    /** Reserves a port (before the certificate exists). */
    int port(java.util.function.Consumer<Void> ignored) throws Exception {
      try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
        fixedPort = s.getLocalPort();
      }
      return fixedPort;
    }

    void restart() throws Exception {
      close();
      HttpServerOptions o =
          new HttpServerOptions()
              .setHost("127.0.0.1")
              .setPort(fixedPort)
              .setSsl(true)
              .setSslEngineOptions(new JdkSSLEngineOptions())
              .setKeyCertOptions(
                  KeyCertOptions.wrap(
                      MutualTls.keyManagers(keys.getPrivate(), List.of(certificate), random)))
              .setTrustOptions(
                  TrustOptions.wrap(MutualTls.trustManagers(agents.authorityCertificate())))
              .setClientAuth(ClientAuth.REQUIRED)
              .setEnabledSecureTransportProtocols(Set.copyOf(MutualTls.PROTOCOLS));
      server =
          vertx
              .createHttpServer(o)
              .requestHandler(this::handle)
              .listen()
              .toCompletionStage()
              .toCompletableFuture()
              .get(10, TimeUnit.SECONDS);
    }

    void handle(HttpServerRequest req) {
      req.body()
          .onSuccess(
              buf -> {
                calls++;
                byte[] body = buf.getBytes();
                String nonce = req.getHeader(SignedMessages.NONCE);
                long date = Long.parseLong(req.getHeader(SignedMessages.DATE));
                X509Certificate client;
                try {
                  client = (X509Certificate) req.connection().sslSession().getPeerCertificates()[0];
                } catch (Exception e) {
                  throw new IllegalStateException(e);
                }
                boolean ok =
                    client.equals(agents.applianceCertificate())
                        && SignedMessages.verify(
                            client.getPublicKey(),
                            SignedMessages.requestText(
                                req.method().name(), req.path(), date, nonce, body),
                            req.getHeader(SignedMessages.SIGNATURE));
                JsonObject answer;
                int status;
                if (!ok) {
                  status = 401;
                  answer = new JsonObject().put("title", "unsigned").put("detail", "bad signature");
                } else if (req.path().equals("/v1/capabilities")) {
                  status = 200;
                  answer =
                      new JsonObject()
                          .put("node", node)
                          .put(
                              "actions",
                              new io.vertx.core.json.JsonArray().add("gpu-reset").add("dcgm-diag"));
                } else {
                  JsonObject in = new JsonObject(new String(body, StandardCharsets.UTF_8));
                  status = 202;
                  answer =
                      in.copy()
                          .put("state", "succeeded")
                          .put("exitCode", 0)
                          .put("summary", "GPU 3 reset")
                          .put("output", "GPU 00000000:3B:00.0 was successfully reset.")
                          .put("started", Instant.now().toString())
                          .put("finished", Instant.now().toString());
                }
                byte[] out = answer.encode().getBytes(StandardCharsets.UTF_8);
                long now = System.currentTimeMillis();
                String sig =
                    SignedMessages.sign(
                        keys.getPrivate(),
                        SignedMessages.answerText(
                            status, nonce, now, badSignature ? new byte[] {1} : out),
                        random);
                req.response()
                    .setStatusCode(status)
                    .putHeader(SignedMessages.DATE, Long.toString(now))
                    .putHeader(SignedMessages.NONCE, nonce)
                    .putHeader(SignedMessages.SIGNATURE, sig)
                    .putHeader("Content-Type", "application/json")
                    .end(io.vertx.core.buffer.Buffer.buffer(out));
              });
    }

    void close() throws Exception {
      if (server != null) {
        server.close().toCompletionStage().toCompletableFuture().get(5, TimeUnit.SECONDS);
        server = null;
      }
    }
  }
}
