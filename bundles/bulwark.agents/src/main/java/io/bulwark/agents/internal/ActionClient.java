package io.bulwark.agents.internal;

import io.bulwark.api.agent.AgentChannelException;
import io.bulwark.api.agent.AgentChannelException.Kind;
import io.bulwark.api.agent.AgentRecord;
import io.bulwark.lib.pki.Certificates;
import io.bulwark.lib.pki.MutualTls;
import io.bulwark.lib.pki.SignedMessages;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSession;

/**
 * The appliance's side of the action channel: HTTPS over BCJSSE with the appliance's client
 * certificate, trusting the agent authority alone; each request signed with the appliance's key;
 * each answer accepted only from the certificate enrolled for that node (its serial) and only with
 * a valid signature by that certificate's key over the status, the request's nonce and the body.
 */
final class ActionClient {
  static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);
  static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(20);

  /** One signed exchange, as the audit log records it. */
  record Exchange(
      int status, JsonObject body, String nonce, String requestSignature, String answerSignature) {}

  private final Certificates.Identity client;
  private final SecureRandom random;
  private final Clock clock;
  private final HttpClient http;

  ActionClient(
      Certificates.Identity client, X509Certificate authority, SecureRandom random, Clock clock) {
    this.client = client;
    this.random = random;
    this.clock = clock;
    SSLContext ctx =
        MutualTls.context(client.privateKey(), List.of(client.certificate()), authority, random);
    this.http =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(CONNECT_TIMEOUT)
            .followRedirects(HttpClient.Redirect.NEVER)
            .sslContext(ctx)
            .sslParameters(MutualTls.parameters(ctx))
            .build();
  }

  /** Sends one signed request to the agent of {@code agent} and checks its signed answer. */
  Exchange call(AgentRecord agent, String method, String path, JsonObject body)
      throws AgentChannelException {
    byte[] bytes = body == null ? new byte[0] : body.encode().getBytes(StandardCharsets.UTF_8);
    long now = clock.millis();
    String nonce = SignedMessages.nonce(random);
    String signature =
        SignedMessages.sign(
            client.privateKey(),
            SignedMessages.requestText(method, path, now, nonce, bytes),
            random);
    URI uri = URI.create("https://" + agent.endpoint() + path);
    HttpRequest request =
        HttpRequest.newBuilder(uri)
            .timeout(REQUEST_TIMEOUT)
            .header("Content-Type", "application/json")
            .header(SignedMessages.DATE, Long.toString(now))
            .header(SignedMessages.NONCE, nonce)
            .header(SignedMessages.SIGNATURE, signature)
            .method(method, HttpRequest.BodyPublishers.ofByteArray(bytes))
            .build();
    HttpResponse<byte[]> answer;
    try {
      answer = http.send(request, HttpResponse.BodyHandlers.ofByteArray());
    } catch (IOException e) {
      throw new AgentChannelException(
          Kind.UNREACHABLE,
          "the node agent of "
              + agent.node()
              + " at "
              + agent.endpoint()
              + " cannot be reached over the action channel ("
              + e
              + "): check that the agent runs with its action channel on that port and that the"
              + " appliance can reach it",
          e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AgentChannelException(Kind.UNREACHABLE, "interrupted calling " + agent.node(), e);
    }
    X509Certificate peer = peer(agent, answer);
    if (!Certificates.serial(peer).equals(agent.serial())
        || !Certificates.commonName(peer).equals(agent.node())) {
      throw new AgentChannelException(
          Kind.BAD_ANSWER,
          "the agent at "
              + agent.endpoint()
              + " presented certificate "
              + Certificates.serial(peer)
              + " ("
              + Certificates.commonName(peer)
              + "), not the one enrolled for "
              + agent.node()
              + " ("
              + agent.serial()
              + "): re-enrol the node or correct its endpoint");
    }
    String answerNonce = answer.headers().firstValue(SignedMessages.NONCE).orElse("");
    String date = answer.headers().firstValue(SignedMessages.DATE).orElse("");
    String answerSignature = answer.headers().firstValue(SignedMessages.SIGNATURE).orElse("");
    long millis;
    try {
      millis = Long.parseLong(date);
    } catch (NumberFormatException e) {
      millis = Long.MIN_VALUE;
    }
    if (!nonce.equals(answerNonce)
        || !SignedMessages.verify(
            peer.getPublicKey(),
            SignedMessages.answerText(answer.statusCode(), answerNonce, millis, answer.body()),
            answerSignature)) {
      throw new AgentChannelException(
          Kind.BAD_ANSWER,
          "the answer of the node agent of "
              + agent.node()
              + " is not signed by its certificate for this request: it was refused");
    }
    JsonObject json;
    try {
      json =
          answer.body().length == 0
              ? new JsonObject()
              : new JsonObject(new String(answer.body(), StandardCharsets.UTF_8));
    } catch (RuntimeException e) {
      throw new AgentChannelException(
          Kind.BAD_ANSWER, "the node agent of " + agent.node() + " answered something not JSON", e);
    }
    return new Exchange(answer.statusCode(), json, nonce, signature, answerSignature);
  }

  private static X509Certificate peer(AgentRecord agent, HttpResponse<?> answer)
      throws AgentChannelException {
    SSLSession session = answer.sslSession().orElse(null);
    try {
      Certificate[] chain = session == null ? null : session.getPeerCertificates();
      if (chain == null || chain.length == 0 || !(chain[0] instanceof X509Certificate)) {
        throw new SSLPeerUnverifiedException("no certificate");
      }
      return (X509Certificate) chain[0];
    } catch (SSLPeerUnverifiedException e) {
      throw new AgentChannelException(
          Kind.BAD_ANSWER, "the agent at " + agent.endpoint() + " presented no certificate", e);
    }
  }
}
