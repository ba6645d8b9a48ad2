package io.bulwark.agent.internal;

import io.bulwark.lib.pki.Certificates;
import io.bulwark.lib.pki.FipsProviders;
import io.bulwark.lib.pki.MutualTls;
import io.bulwark.lib.pki.SignedMessages;
import io.bulwark.lib.vertx.HttpListen;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.ClientAuth;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.JdkSSLEngineOptions;
import io.vertx.core.net.KeyCertOptions;
import io.vertx.core.net.TrustOptions;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.bouncycastle.crypto.CryptoServicesRegistrar;
import org.bouncycastle.jcajce.provider.BouncyCastleFipsProvider;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.metatype.annotations.Designate;

/**
 * The node agent's action channel: HTTPS through BCJSSE (FIPS, TLS 1.3), a client certificate
 * required, and only the appliance's (the one received at enrolment) accepted; every request must
 * carry a fresh, unreplayed signature by that certificate's key, every answer carries the agent's;
 * every request is written to the agent's own audit file before it is answered. Routes: {@code GET
 * /v1/capabilities}, {@code POST /v1/actions}, {@code GET /v1/actions/{id}}. Off unless PID {@code
 * io.bulwark.agent.actions} is configured. It listens on its {@code bindAddress}, an IP address of
 * the node, or where it has none, on the agent's own (the metrics page's, {@code
 * BULWARK_AGENT_BIND_ADDRESS}): never on every interface unless one of them says so.
 */
@Component(
    service = ActionChannel.class,
    immediate = true,
    configurationPid = "io.bulwark.agent.actions",
    configurationPolicy = ConfigurationPolicy.REQUIRE)
@Designate(ocd = ActionChannelConfig.class)
public final class ActionChannel {
  private static final System.Logger LOG = System.getLogger(ActionChannel.class.getName());
  static final int MAX_BODY = 16 * 1024;
  static final int MAX_NONCES = 100_000;
  private static final java.util.regex.Pattern IPV4 =
      java.util.regex.Pattern.compile(
          "((25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])\\.){3}(25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])");

  private final Vertx vertx;
  private final SecureRandom random;
  private final AgentIdentity identity;
  private final String node;
  private final ActionRunner runner;
  private final AgentAuditFile audit;
  private final HttpServer server;
  private final String applianceFingerprint;
  private final Map<String, Long> nonces = new LinkedHashMap<>();
  private final NvmlExporter agent;

  @Activate
  public ActionChannel(
      @Reference Vertx vertx, @Reference NvmlExporter agent, ActionChannelConfig config) {
    this(vertx, config, agent.bindAddress(), agent);
  }

  /**
   * @param agentBindAddress where the agent's metrics page listens: the channel's address when it
   *     has none of its own
   */
  ActionChannel(Vertx vertx, ActionChannelConfig config, String agentBindAddress) {
    this(vertx, config, agentBindAddress, null);
  }

  private ActionChannel(
      Vertx vertx, ActionChannelConfig config, String agentBindAddress, NvmlExporter agent) {
    this.vertx = vertx;
    this.agent = agent;
    // the agent's own address listens already (so it is one of this node's); the channel's own
    // must be an IP address
    String bind =
        config.bindAddress() == null || config.bindAddress().isBlank()
            ? agentBindAddress
            : bindAddress(config.bindAddress());
    BouncyCastleFipsProvider fips = FipsProviders.establish();
    this.random = fips.getDefaultSecureRandom();
    CryptoServicesRegistrar.setSecureRandom(random);
    this.node =
        config.hostname() == null || config.hostname().isBlank()
            ? AgentOptions.localHostname()
            : config.hostname().strip();
    String advertise =
        config.advertiseAddress() == null || config.advertiseAddress().isBlank()
            ? node
            : config.advertiseAddress().strip();
    Path dir = Path.of(config.identityDirectory());
    try {
      AgentIdentity known = AgentIdentity.load(dir);
      if (known == null) {
        if (config.applianceUrl().isBlank()
            || config.applianceFingerprint().isBlank()
            || config.enrolmentToken().isBlank()) {
          throw new IllegalStateException(
              "the action channel of "
                  + node
                  + " is configured but not enrolled: set applianceUrl, applianceFingerprint and"
                  + " enrolmentToken of PID io.bulwark.agent.actions (BULWARK_AGENT_APPLIANCE_URL,"
                  + " BULWARK_AGENT_APPLIANCE_FINGERPRINT, BULWARK_AGENT_ENROLMENT_TOKEN), the"
                  + " token being a one-time token an admin issues for this node (POST"
                  + " /api/v1/agents/enrolment-tokens); the identity is then kept in "
                  + dir.toAbsolutePath());
        }
        known =
            AgentIdentity.enrol(
                config.applianceUrl().strip(),
                config.applianceFingerprint().strip(),
                config.enrolmentToken().strip(),
                node,
                advertise + ":" + config.port(),
                random);
        known.save(dir);
        LOG.log(
            Level.INFO,
            "Node {0} enrolled with the appliance at {1}: certificate {2}, valid until {3}",
            node,
            config.applianceUrl(),
            Certificates.serial(known.certificate()),
            known.certificate().getNotAfter().toInstant());
      }
      this.identity = known;
      this.audit = new AgentAuditFile(Path.of(config.auditFile()));
    } catch (IOException e) {
      LOG.log(Level.ERROR, "The action channel of {0} cannot start: {1}", node, e.getMessage());
      throw new IllegalStateException(e.getMessage(), e);
    } catch (IllegalStateException e) {
      LOG.log(Level.ERROR, "The action channel of {0} cannot start: {1}", node, e.getMessage());
      throw e;
    }
    this.applianceFingerprint = Certificates.fingerprint(identity.appliance());
    this.runner =
        new ActionRunner(config.nvidiaSmi(), config.dcgmi(), config.actionTimeoutSeconds());
    HttpServerOptions options =
        new HttpServerOptions()
            .setHost(bind)
            .setPort(config.port())
            .setSsl(true)
            .setSslEngineOptions(new JdkSSLEngineOptions())
            .setKeyCertOptions(
                KeyCertOptions.wrap(
                    MutualTls.keyManagers(identity.key(), List.of(identity.certificate()), random)))
            .setTrustOptions(TrustOptions.wrap(MutualTls.trustManagers(identity.authority())))
            .setClientAuth(ClientAuth.REQUIRED)
            .setEnabledSecureTransportProtocols(Set.copyOf(MutualTls.PROTOCOLS));
    MutualTls.CIPHER_SUITES.forEach(options::addEnabledCipherSuite);
    try {
      this.server =
          HttpListen.listen(
              vertx.createHttpServer(options).requestHandler(this::handle),
              "node agent action channel",
              (bind.contains(":") ? "[" + bind + "]" : bind) + ":" + config.port(),
              "set port and bindAddress of io.bulwark.agent.actions to a free port of this node",
              10);
    } catch (IllegalStateException e) {
      runner.close();
      closeAudit();
      throw e;
    }
    LOG.log(
        Level.INFO,
        "Node agent {0}: action channel on {1}:{2} (mutual TLS; actions: {3})",
        node,
        bind,
        String.valueOf(server.actualPort()),
        String.join(", ", runner.capabilities()));
    if (agent != null) {
      agent.channelListening(server.actualPort());
    }
  }

  int port() {
    return server.actualPort();
  }

  /**
   * Returns the address the channel listens on: {@code configured}, stripped, if it is an IPv4 or
   * IPv6 address (never looked up, so that a name cannot move it to another interface).
   *
   * @throws IllegalStateException naming the setting otherwise
   */
  static String bindAddress(String configured) {
    String a = configured == null ? "" : configured.strip();
    boolean ip =
        IPV4.matcher(a).matches() || (a.contains(":") && a.matches("[0-9A-Fa-f:.]+") && ipv6(a));
    if (!ip) {
      throw new IllegalStateException(
          "bindAddress '"
              + configured
              + "' of io.bulwark.agent.actions is not an IP address: give an IP address of this"
              + " node (127.0.0.1 for this node only, 0.0.0.0 or :: for all its addresses)");
    }
    return a;
  }

  private static boolean ipv6(String a) {
    try {
      // a text with ':' is parsed as an IPv6 literal, never looked up
      java.net.InetAddress.getByName(a);
      return true;
    } catch (java.net.UnknownHostException e) {
      return false;
    }
  }

  private void handle(HttpServerRequest request) {
    request.setExpectMultipart(false);
    Buffer body = Buffer.buffer();
    request.handler(
        chunk -> {
          if (body.length() + chunk.length() > MAX_BODY) {
            request.pause();
            answer(
                request,
                new byte[0],
                413,
                problem("Too large", "request bodies are at most 16 KiB"));
            return;
          }
          body.appendBuffer(chunk);
        });
    request.endHandler(
        v -> {
          if (request.response().ended()) {
            return;
          }
          // Verification and the audit write (fsync) run off the event loop.
          vertx
              .executeBlocking(() -> decide(request, body.getBytes()), false)
              .onComplete(
                  r -> {
                    if (r.succeeded()) {
                      Decision d = r.result();
                      answer(request, body.getBytes(), d.status(), d.body());
                    } else {
                      answer(request, body.getBytes(), 500, problem("Error", r.cause().toString()));
                    }
                  });
        });
  }

  private record Decision(int status, JsonObject body) {}

  private Decision decide(HttpServerRequest request, byte[] body) {
    X509Certificate peer = peer(request);
    String nonce = request.getHeader(SignedMessages.NONCE);
    JsonObject entry =
        new JsonObject()
            .put("time", Instant.now().toString())
            .put("peer", peer == null ? "" : Certificates.commonName(peer))
            .put("peerSerial", peer == null ? "" : Certificates.serial(peer))
            .put("method", request.method().name())
            .put("path", request.path())
            .put("nonce", nonce == null ? "" : nonce)
            .put("signature", request.getHeader(SignedMessages.SIGNATURE))
            .put("bodySha384", SignedMessages.sha384(body));
    Decision d = route(request, body, peer, nonce);
    entry
        .put("status", d.status())
        .put("outcome", d.body().getString("detail", d.body().getString("state", "")));
    try {
      audit.append(entry);
    } catch (IOException e) {
      LOG.log(
          Level.ERROR,
          "The agent audit file cannot be written: {0}; the request is refused",
          e.toString());
      return new Decision(
          503,
          problem("Audit unavailable", "the agent cannot record the request: " + e.getMessage()));
    }
    return d;
  }

  private Decision route(
      HttpServerRequest request, byte[] body, X509Certificate peer, String nonce) {
    if (peer == null || !Certificates.fingerprint(peer).equals(applianceFingerprint)) {
      return new Decision(
          403,
          problem("Forbidden", "only the appliance this node enrolled with may ask for actions"));
    }
    String date = request.getHeader(SignedMessages.DATE);
    long millis;
    try {
      millis = Long.parseLong(date == null ? "" : date);
    } catch (NumberFormatException e) {
      return new Decision(
          401, problem("Unsigned", "the request has no valid " + SignedMessages.DATE));
    }
    if (nonce == null || !nonce.matches("[0-9a-f]{32}")) {
      return new Decision(
          401, problem("Unsigned", "the request has no valid " + SignedMessages.NONCE));
    }
    if (!SignedMessages.fresh(millis, Instant.now())) {
      return new Decision(
          401,
          problem("Stale", "the request's time is more than 5 minutes from the agent's clock"));
    }
    if (!SignedMessages.verify(
        peer.getPublicKey(),
        SignedMessages.requestText(request.method().name(), request.path(), millis, nonce, body),
        request.getHeader(SignedMessages.SIGNATURE))) {
      return new Decision(401, problem("Bad signature", "the request's signature does not verify"));
    }
    if (!remember(nonce, millis)) {
      return new Decision(401, problem("Replayed", "this request was seen before"));
    }
    String path = request.path();
    if (path.equals("/v1/capabilities") && request.method() == HttpMethod.GET) {
      return new Decision(
          200,
          new JsonObject()
              .put("node", node)
              .put("actions", new JsonArray(runner.capabilities()))
              .mergeIn(runner.tools()));
    }
    if (path.equals("/v1/actions") && request.method() == HttpMethod.POST) {
      return start(body);
    }
    if (path.startsWith("/v1/actions/") && request.method() == HttpMethod.GET) {
      ActionRunner.Action a = runner.get(path.substring("/v1/actions/".length()));
      if (a == null) {
        return new Decision(
            404,
            problem("Not found", "no action with that request id (the agent may have restarted)"));
      }
      synchronized (runner) {
        return new Decision(200, a.json());
      }
    }
    return new Decision(
        404, problem("Not found", "the action channel serves /v1/capabilities and /v1/actions"));
  }

  private Decision start(byte[] body) {
    JsonObject in;
    try {
      in = new JsonObject(new String(body, StandardCharsets.UTF_8));
    } catch (RuntimeException e) {
      return new Decision(400, problem("Bad request", "the body is not a JSON object"));
    }
    Object id = in.getValue("requestId");
    Object action = in.getValue("action");
    Object gpu = in.getValue("gpu");
    Object level = in.getValue("level", 0);
    if (!(id instanceof String s) || !s.matches("[A-Za-z0-9._:#-]{1,128}")) {
      return new Decision(
          400, problem("Bad request", "'requestId' must be 1-128 of A-Z a-z 0-9 . _ : # -"));
    }
    if (!"gpu-reset".equals(action) && !"dcgm-diag".equals(action)) {
      return new Decision(400, problem("Bad request", "'action' must be gpu-reset or dcgm-diag"));
    }
    if (!(gpu instanceof Integer g) || g < 0 || g > 63) {
      return new Decision(400, problem("Bad request", "'gpu' must be a GPU index, 0 to 63"));
    }
    int lvl = level instanceof Integer l ? l : -1;
    if ("dcgm-diag".equals(action) && (lvl < 1 || lvl > 4)) {
      return new Decision(400, problem("Bad request", "'level' must be 1 to 4 for dcgm-diag"));
    }
    try {
      boolean known = runner.get(s) != null;
      ActionRunner.Action a =
          runner.start(s, (String) action, g, "dcgm-diag".equals(action) ? lvl : 0);
      LOG.log(
          Level.INFO,
          "Node agent {0}: {1} on GPU {2} asked by the appliance ({3})",
          node,
          action,
          g,
          s);
      synchronized (runner) {
        return new Decision(known ? 200 : 202, a.json());
      }
    } catch (IllegalStateException e) {
      return new Decision(409, problem("Conflict", e.getMessage()));
    }
  }

  private synchronized boolean remember(String nonce, long millis) {
    long horizon = System.currentTimeMillis() - 2 * SignedMessages.SKEW.toMillis();
    nonces.values().removeIf(t -> t < horizon);
    while (nonces.size() >= MAX_NONCES) {
      nonces.remove(nonces.keySet().iterator().next());
    }
    return nonces.putIfAbsent(nonce, Math.max(millis, System.currentTimeMillis())) == null;
  }

  private static X509Certificate peer(HttpServerRequest request) {
    try {
      Certificate[] chain = request.connection().sslSession().getPeerCertificates();
      return chain.length > 0 && chain[0] instanceof X509Certificate x ? x : null;
    } catch (Exception e) {
      return null;
    }
  }

  private void answer(HttpServerRequest request, byte[] ignored, int status, JsonObject body) {
    if (request.response().ended()) {
      return;
    }
    byte[] out = body.encode().getBytes(StandardCharsets.UTF_8);
    String nonce = request.getHeader(SignedMessages.NONCE);
    nonce = nonce == null ? "" : nonce;
    long now = System.currentTimeMillis();
    request
        .response()
        .setStatusCode(status)
        .putHeader("Content-Type", status >= 400 ? "application/problem+json" : "application/json")
        .putHeader(SignedMessages.DATE, Long.toString(now))
        .putHeader(SignedMessages.NONCE, nonce)
        .putHeader(
            SignedMessages.SIGNATURE,
            SignedMessages.sign(
                identity.key(), SignedMessages.answerText(status, nonce, now, out), random))
        .end(Buffer.buffer(out));
  }

  private static JsonObject problem(String title, String detail) {
    return new JsonObject().put("title", title).put("detail", detail);
  }

  private void closeAudit() {
    try {
      if (audit != null) {
        audit.close();
      }
    } catch (IOException e) {
      LOG.log(Level.WARNING, "The agent audit file did not close cleanly: {0}", e.toString());
    }
  }

  @Deactivate
  void stop() {
    if (agent != null) {
      agent.channelListening(0);
    }
    try {
      server.close().toCompletionStage().toCompletableFuture().get(5, TimeUnit.SECONDS);
    } catch (Exception e) {
      LOG.log(Level.WARNING, "The action channel did not close cleanly: {0}", e.toString());
    }
    runner.close();
    closeAudit();
  }
}
