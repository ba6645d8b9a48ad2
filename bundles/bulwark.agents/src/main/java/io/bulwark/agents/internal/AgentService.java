package io.bulwark.agents.internal;

import io.bulwark.api.agent.ActionRequest;
import io.bulwark.api.agent.ActionResult;
import io.bulwark.api.agent.AgentAction;
import io.bulwark.api.agent.AgentActions;
import io.bulwark.api.agent.AgentChannelException;
import io.bulwark.api.agent.AgentChannelException.Kind;
import io.bulwark.api.agent.AgentRecord;
import io.bulwark.api.audit.AuditEvent;
import io.bulwark.api.audit.AuditLog;
import io.bulwark.api.audit.AuditOutcome;
import io.bulwark.api.security.CryptoModule;
import io.bulwark.api.security.SecretStore;
import io.bulwark.api.store.RecordStore;
import io.bulwark.api.store.WritePriority;
import io.bulwark.lib.pki.Certificates;
import io.bulwark.lib.pki.Pem;
import io.bulwark.lib.pki.SignedMessages;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

/**
 * The node agents as the appliance knows them: one-time enrolment tokens (only their SHA-384 is
 * stored), enrolment (the agent's own P-384 request in, a certificate of the agent authority out),
 * revocation, and the signed, audited actions asked of enrolled agents. A revoked or expired agent
 * is never called.
 */
@Component(service = {AgentService.class, AgentActions.class})
public final class AgentService implements AgentActions {
  static final Pattern NODE = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,62}");
  static final Pattern ENDPOINT = Pattern.compile("[A-Za-z0-9._:\\[\\]-]{1,200}:[0-9]{1,5}");
  static final Duration MAX_TOKEN_LIFE = Duration.ofHours(24);
  static final String UNKNOWN_TOKEN =
      "the enrolment token is unknown, used or expired: ask an admin for a new one";

  /** What an enrolment returns to the agent. */
  record Enrolment(AgentRecord record, X509Certificate certificate) {}

  private final RecordStore store;
  private final AuditLog audit;
  private final SecureRandom random;
  private final Clock clock;
  private final AgentAuthority authority;
  private final ActionClient client;

  @Activate
  public AgentService(
      @Reference RecordStore store,
      @Reference SecretStore secrets,
      @Reference CryptoModule crypto,
      @Reference AuditLog audit) {
    this(store, secrets, crypto.random(), audit, Clock.systemUTC());
  }

  AgentService(
      RecordStore store, SecretStore secrets, SecureRandom random, AuditLog audit, Clock clock) {
    this.store = store;
    this.audit = audit;
    this.random = random;
    this.clock = clock;
    this.authority = new AgentAuthority(secrets, random, clock.instant());
    this.client = new ActionClient(authority.client(), authority.certificate(), random, clock);
  }

  X509Certificate authorityCertificate() {
    return authority.certificate();
  }

  X509Certificate applianceCertificate() {
    return authority.client().certificate();
  }

  /**
   * Issues a one-time enrolment token for {@code node}, valid for {@code life}; returns the token
   * (shown once, stored only as its SHA-384).
   */
  String issueToken(String node, Duration life, String by) {
    if (!NODE.matcher(node).matches()) {
      throw new IllegalArgumentException(
          "'node' must be a host name of 1-63 letters, digits, . _ -");
    }
    if (life.isNegative() || life.isZero() || life.compareTo(MAX_TOKEN_LIFE) > 0) {
      throw new IllegalArgumentException("a token lives 1 minute to 24 hours");
    }
    byte[] raw = new byte[32];
    random.nextBytes(raw);
    String token = "bwe_" + Base64.getUrlEncoder().withoutPadding().encodeToString(raw);
    Instant expires = clock.instant().plus(life);
    store.write(
        "issue an agent enrolment token for " + node,
        WritePriority.ROUTINE,
        w -> {
          w.map(AgentFormats.TOKENS)
              .put(
                  SignedMessages.sha384(token.getBytes()),
                  new AgentFormats.Token(node, expires, by));
          return null;
        });
    return token;
  }

  /**
   * Enrols an agent: checks the token first (an unknown one is refused before anything else the
   * client sent is read), then the endpoint and the request (P-384, signed by its key, named for
   * the token's node), takes the token (once) and issues the certificate.
   *
   * @throws SecurityException if the token is unknown, used or expired
   * @throws IllegalArgumentException if the request or endpoint is wrong
   */
  Enrolment enrol(String token, String csrPem, String endpoint) {
    String key = SignedMessages.sha384(token == null ? new byte[0] : token.getBytes());
    if (store.read(r -> r.map(AgentFormats.TOKENS).get(key)) == null) {
      throw new SecurityException(UNKNOWN_TOKEN);
    }
    if (endpoint == null || !ENDPOINT.matcher(endpoint).matches()) {
      throw new IllegalArgumentException(
          "'endpoint' must be host:port of the agent's action channel");
    }
    Certificates.Request csr = Certificates.readRequest(csrPem);
    Instant now = clock.instant();
    return store.write(
        "enrol a node agent",
        WritePriority.RESERVED,
        w -> {
          var tokens = w.map(AgentFormats.TOKENS);
          AgentFormats.Token t = tokens.get(key);
          if (t == null || !now.isBefore(t.expiresAt())) {
            if (t != null) {
              tokens.remove(key);
            }
            throw new SecurityException(UNKNOWN_TOKEN);
          }
          if (!t.node().equals(csr.commonName())) {
            throw new IllegalArgumentException(
                "the token is for node " + t.node() + " but the request names " + csr.commonName());
          }
          tokens.remove(key);
          String host =
              endpoint.substring(0, endpoint.lastIndexOf(':')).replace("[", "").replace("]", "");
          X509Certificate cert = authority.issue(csr.publicKey(), t.node(), host, now);
          AgentRecord record =
              new AgentRecord(
                  t.node(),
                  endpoint,
                  Certificates.serial(cert),
                  Certificates.fingerprint(cert),
                  now,
                  cert.getNotAfter().toInstant(),
                  null,
                  "");
          w.map(AgentFormats.AGENTS).put(t.node(), record);
          return new Enrolment(record, cert);
        });
  }

  /** Revokes the node's agent certificate: the appliance never talks to it again. */
  AgentRecord revoke(String node, String by) {
    return store.write(
        "revoke the agent of " + node,
        WritePriority.RESERVED,
        w -> {
          var agents = w.map(AgentFormats.AGENTS);
          AgentRecord a = agents.get(node);
          if (a == null) {
            throw new NoSuchElementException("node " + node + " has no enrolled agent");
          }
          if (a.revoked()) {
            return a;
          }
          AgentRecord r =
              new AgentRecord(
                  a.node(),
                  a.endpoint(),
                  a.serial(),
                  a.fingerprint(),
                  a.enrolledAt(),
                  a.expiresAt(),
                  clock.instant(),
                  by);
          agents.put(node, r);
          return r;
        });
  }

  @Override
  public List<AgentRecord> agents() {
    return store.read(r -> r.map(AgentFormats.AGENTS).entries()).stream()
        .map(Map.Entry::getValue)
        .toList();
  }

  @Override
  public Optional<AgentRecord> agent(String node) {
    return Optional.ofNullable(store.read(r -> r.map(AgentFormats.AGENTS).get(node)));
  }

  private AgentRecord usable(String node) throws AgentChannelException {
    AgentRecord a = agent(node).orElse(null);
    if (a == null) {
      throw new AgentChannelException(
          Kind.NOT_ENROLLED,
          "node "
              + node
              + " has no enrolled node agent: issue an enrolment token and configure"
              + " the agent's action channel (io.bulwark.agent.actions)");
    }
    if (a.revoked()) {
      throw new AgentChannelException(
          Kind.NOT_ENROLLED,
          "the agent certificate of "
              + node
              + " was revoked by "
              + a.revokedBy()
              + " at "
              + a.revokedAt()
              + ": re-enrol the node to take actions on it");
    }
    if (!a.usable(clock.instant())) {
      throw new AgentChannelException(
          Kind.NOT_ENROLLED,
          "the agent certificate of "
              + node
              + " expired at "
              + a.expiresAt()
              + ": re-enrol the node");
    }
    return a;
  }

  @Override
  public Set<AgentAction> capabilities(String node) throws AgentChannelException {
    AgentRecord a = usable(node);
    ActionClient.Exchange x = audited(a, "GET", "/v1/capabilities", null, "agent.capabilities");
    if (x.status() != 200) {
      throw refused(a, x);
    }
    Set<AgentAction> out = EnumSet.noneOf(AgentAction.class);
    JsonArray actions = x.body().getJsonArray("actions", new JsonArray());
    for (Object o : actions) {
      AgentAction.of(String.valueOf(o)).ifPresent(out::add);
    }
    return out;
  }

  @Override
  public ActionResult start(String node, ActionRequest request) throws AgentChannelException {
    AgentRecord a = usable(node);
    JsonObject body =
        new JsonObject()
            .put("requestId", request.requestId())
            .put("action", request.action().wire())
            .put("gpu", request.gpu())
            .put("level", request.level());
    ActionClient.Exchange x = audited(a, "POST", "/v1/actions", body, "agent.action-start");
    if (x.status() != 200 && x.status() != 202) {
      throw refused(a, x);
    }
    return result(a, x.body());
  }

  @Override
  public ActionResult status(String node, String requestId) throws AgentChannelException {
    if (!requestId.matches(ActionRequest.ID_PATTERN)) {
      throw new IllegalArgumentException("not a request id: " + requestId);
    }
    AgentRecord a = usable(node);
    ActionClient.Exchange x =
        audited(a, "GET", "/v1/actions/" + requestId, null, "agent.action-status");
    if (x.status() != 200) {
      throw refused(a, x);
    }
    return result(a, x.body());
  }

  private ActionClient.Exchange audited(
      AgentRecord a, String method, String path, JsonObject body, String action)
      throws AgentChannelException {
    Map<String, String> d = new LinkedHashMap<>();
    d.put("endpoint", a.endpoint());
    d.put("certificate", a.serial());
    d.put("request", method + " " + path);
    if (body != null) {
      d.put("body", body.encode());
    }
    try {
      ActionClient.Exchange x = client.call(a, method, path, body);
      d.put("nonce", x.nonce());
      d.put("requestSignature", x.requestSignature());
      d.put("answerSignature", x.answerSignature());
      d.put("status", Integer.toString(x.status()));
      d.put("answer", abbreviate(x.body().encode()));
      boolean ok = x.status() / 100 == 2;
      audit.append(
          new AuditEvent(
              "system:remediation",
              "appliance",
              action,
              a.node(),
              ok ? AuditOutcome.SUCCESS : AuditOutcome.FAILURE,
              d));
      return x;
    } catch (AgentChannelException e) {
      d.put("error", e.getMessage());
      audit.append(
          new AuditEvent(
              "system:remediation", "appliance", action, a.node(), AuditOutcome.FAILURE, d));
      throw e;
    }
  }

  private static String abbreviate(String s) {
    return s.length() <= 2000 ? s : s.substring(0, 2000) + "…";
  }

  private static AgentChannelException refused(AgentRecord a, ActionClient.Exchange x) {
    String detail = x.body().getString("detail", x.body().getString("title", "no detail"));
    return new AgentChannelException(
        Kind.REFUSED, "the node agent of " + a.node() + " refused (" + x.status() + "): " + detail);
  }

  private static ActionResult result(AgentRecord a, JsonObject j) throws AgentChannelException {
    try {
      AgentAction action =
          AgentAction.of(j.getString("action", ""))
              .orElseThrow(
                  () -> new IllegalArgumentException("unknown action " + j.getValue("action")));
      String finished = j.getString("finished");
      return new ActionResult(
          j.getString("requestId"),
          action,
          j.getInteger("gpu", -1),
          ActionResult.State.valueOf(j.getString("state", "").toUpperCase(java.util.Locale.ROOT)),
          j.getInteger("exitCode", -1),
          j.getString("summary", ""),
          j.getString("output", ""),
          Instant.parse(j.getString("started")),
          finished == null ? null : Instant.parse(finished));
    } catch (RuntimeException e) {
      throw new AgentChannelException(
          Kind.BAD_ANSWER,
          "the node agent of "
              + a.node()
              + " answered an action result that cannot be read: "
              + e.getMessage(),
          e);
    }
  }

  /** Returns the enrolment answer: the certificate, the authority, the appliance's certificate. */
  JsonObject enrolmentAnswer(Enrolment e) {
    return new JsonObject()
        .put("node", e.record().node())
        .put("certificate", Pem.certificate(e.certificate()))
        .put("authority", Pem.certificate(authority.certificate()))
        .put("appliance", Pem.certificate(authority.client().certificate()))
        .put("expiresAt", e.record().expiresAt().toString());
  }
}
