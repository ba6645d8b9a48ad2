package io.bulwark.agent.internal;

import io.bulwark.lib.files.AtomicFile;
import io.bulwark.lib.pki.Certificates;
import io.bulwark.lib.pki.EcKeys;
import io.bulwark.lib.pki.Pem;
import io.bulwark.lib.pki.PinnedTrust;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.Arrays;

/**
 * The node agent's identity on the action channel: its own P-384 key (generated on the node, never
 * sent), its certificate from the appliance's agent authority, the authority's certificate and the
 * appliance's channel certificate (the only client the agent accepts). Kept in one folder readable
 * by the service user only, written whole or not at all ({@code identity.pem} last: a folder
 * without it holds no identity).
 */
record AgentIdentity(
    PrivateKey key,
    X509Certificate certificate,
    X509Certificate authority,
    X509Certificate appliance) {
  static final String FILE = "identity.pem";

  /** Loads the identity kept in {@code dir}, or returns null if there is none. */
  static AgentIdentity load(Path dir) throws IOException {
    Path file = dir.resolve(FILE);
    if (!Files.exists(file)) {
      return null;
    }
    byte[] bytes = Files.readAllBytes(file);
    char[] text = new String(bytes, StandardCharsets.US_ASCII).toCharArray();
    Arrays.fill(bytes, (byte) 0);
    try {
      var certs = Pem.certificates(new String(text));
      if (certs.size() != 3) {
        throw new IOException(
            file + " holds " + certs.size() + " certificates, not 3: enrol again");
      }
      return new AgentIdentity(Pem.ecPrivateKey(text), certs.get(0), certs.get(1), certs.get(2));
    } catch (IllegalArgumentException e) {
      throw new IOException(
          file + " cannot be read (" + e.getMessage() + "): remove it and enrol again", e);
    } finally {
      Arrays.fill(text, '\0');
    }
  }

  /** Keeps the identity in {@code dir}, replacing any earlier one whole. */
  void save(Path dir) throws IOException {
    AtomicFile.createFolder(dir);
    char[] pem = Pem.privateKey(key);
    String certs =
        Pem.certificate(certificate) + Pem.certificate(authority) + Pem.certificate(appliance);
    byte[] out = new byte[pem.length + certs.length()];
    for (int i = 0; i < pem.length; i++) {
      out[i] = (byte) pem[i];
    }
    System.arraycopy(certs.getBytes(StandardCharsets.US_ASCII), 0, out, pem.length, certs.length());
    try {
      AtomicFile.write(dir.resolve(FILE), out);
    } finally {
      Arrays.fill(pem, '\0');
      Arrays.fill(out, (byte) 0);
    }
  }

  /**
   * Enrols with the appliance at {@code url}: a fresh key, a request for {@code node}, sent with
   * the one-time {@code token} over TLS pinned to {@code fingerprint}.
   *
   * @throws IllegalStateException naming what went wrong and what to do
   */
  static AgentIdentity enrol(
      String url,
      String fingerprint,
      String token,
      String node,
      String endpoint,
      SecureRandom random) {
    KeyPair keys = EcKeys.generate(random);
    String csr = Certificates.request(keys, node, random);
    JsonObject body =
        new JsonObject().put("token", token).put("csr", csr).put("endpoint", endpoint);
    HttpResponse<String> answer;
    try {
      HttpClient http =
          HttpClient.newBuilder()
              .version(HttpClient.Version.HTTP_1_1)
              .connectTimeout(Duration.ofSeconds(10))
              .sslContext(new PinnedTrust("the appliance at " + url, fingerprint).context())
              .build();
      answer =
          http.send(
              HttpRequest.newBuilder(URI.create(url + "/api/v1/agents/enrol"))
                  .timeout(Duration.ofSeconds(30))
                  .header("Content-Type", "application/json")
                  .POST(HttpRequest.BodyPublishers.ofString(body.encode()))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
    } catch (IOException | GeneralSecurityException e) {
      throw new IllegalStateException(
          "enrolment of "
              + node
              + " with the appliance at "
              + url
              + " failed: "
              + e.getMessage()
              + "; check the appliance URL, that it is reachable, and its certificate fingerprint",
          e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("enrolment interrupted", e);
    }
    if (answer.statusCode() != 200) {
      String detail;
      try {
        detail = new JsonObject(answer.body()).getString("detail", answer.body());
      } catch (RuntimeException e) {
        detail = answer.body();
      }
      throw new IllegalStateException(
          "the appliance at "
              + url
              + " refused the enrolment of "
              + node
              + " ("
              + answer.statusCode()
              + "): "
              + detail
              + "; ask an admin for a new enrolment token");
    }
    try {
      JsonObject j = new JsonObject(answer.body());
      X509Certificate cert = Pem.certificate(j.getString("certificate"));
      X509Certificate authority = Pem.certificate(j.getString("authority"));
      X509Certificate appliance = Pem.certificate(j.getString("appliance"));
      if (!cert.getPublicKey().equals(keys.getPublic())) {
        throw new IllegalStateException("the certificate issued is not for this agent's key");
      }
      cert.verify(authority.getPublicKey(), "BCFIPS");
      appliance.verify(authority.getPublicKey(), "BCFIPS");
      return new AgentIdentity(keys.getPrivate(), cert, authority, appliance);
    } catch (GeneralSecurityException | RuntimeException e) {
      throw new IllegalStateException(
          "the appliance at "
              + url
              + " answered the enrolment with certificates that do not check: "
              + e.getMessage(),
          e);
    }
  }
}
