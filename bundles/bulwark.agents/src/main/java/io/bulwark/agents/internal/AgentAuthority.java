package io.bulwark.agents.internal;

import io.bulwark.api.security.SecretStore;
import io.bulwark.lib.pki.Certificates;
import io.bulwark.lib.pki.Pem;
import java.nio.charset.StandardCharsets;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The appliance's agent authority: a self-signed ECDSA P-384 certificate authority that issues each
 * node agent its certificate at enrolment, and the appliance's own client identity on the action
 * channel. Both private keys live in the secret store (sealed to the TPM), never in a plain file;
 * they are created on first use and kept across restarts.
 */
final class AgentAuthority {
  static final String AUTHORITY_SECRET = "agents.authority";
  static final String CLIENT_SECRET = "agents.appliance-client";
  static final String AUTHORITY_NAME = "Bulwark agent authority";
  static final String CLIENT_NAME = "Bulwark appliance";
  static final Duration AUTHORITY_VALIDITY = Duration.ofDays(3650);
  static final Duration CLIENT_VALIDITY = Duration.ofDays(825);
  static final Duration AGENT_VALIDITY = Duration.ofDays(365);

  private final SecureRandom random;
  private final Certificates.Identity authority;
  private final Certificates.Identity client;

  AgentAuthority(SecretStore secrets, SecureRandom random, Instant now) {
    this.random = random;
    this.authority =
        load(secrets, AUTHORITY_SECRET)
            .orElseGet(
                () -> {
                  Certificates.Identity made =
                      Certificates.authority(AUTHORITY_NAME, now, AUTHORITY_VALIDITY, random);
                  store(secrets, AUTHORITY_SECRET, made);
                  return made;
                });
    this.client =
        load(secrets, CLIENT_SECRET)
            .filter(c -> issuedBy(c.certificate(), authority.certificate()))
            .filter(c -> c.certificate().getNotAfter().toInstant().isAfter(now))
            .orElseGet(
                () -> {
                  var keys = io.bulwark.lib.pki.EcKeys.generate(random);
                  Certificates.Identity made =
                      new Certificates.Identity(
                          keys.getPrivate(),
                          Certificates.issue(
                              authority,
                              keys.getPublic(),
                              CLIENT_NAME,
                              List.of(),
                              Certificates.Usage.CLIENT,
                              now,
                              CLIENT_VALIDITY,
                              random));
                  store(secrets, CLIENT_SECRET, made);
                  return made;
                });
  }

  X509Certificate certificate() {
    return authority.certificate();
  }

  Certificates.Identity client() {
    return client;
  }

  /** Issues a node agent's certificate: server and client use, the node and its address named. */
  X509Certificate issue(PublicKey key, String node, String host, Instant now) {
    List<String> names = host.equals(node) ? List.of(node) : List.of(node, host);
    return Certificates.issue(
        authority,
        key,
        node,
        names,
        Certificates.Usage.SERVER_AND_CLIENT,
        now,
        AGENT_VALIDITY,
        random);
  }

  private static boolean issuedBy(X509Certificate cert, X509Certificate issuer) {
    try {
      cert.verify(issuer.getPublicKey(), "BCFIPS");
      return true;
    } catch (java.security.GeneralSecurityException e) {
      return false;
    }
  }

  private static Optional<Certificates.Identity> load(SecretStore secrets, String name) {
    Optional<byte[]> stored = secrets.get(name);
    if (stored.isEmpty()) {
      return Optional.empty();
    }
    byte[] bytes = stored.get();
    char[] text = new String(bytes, StandardCharsets.US_ASCII).toCharArray();
    Arrays.fill(bytes, (byte) 0);
    try {
      X509Certificate cert = Pem.certificate(new String(text));
      return Optional.of(new Certificates.Identity(Pem.ecPrivateKey(text), cert));
    } catch (IllegalArgumentException e) {
      throw new IllegalStateException(
          "the secret " + name + " does not hold a key and certificate: " + e.getMessage(), e);
    } finally {
      Arrays.fill(text, '\0');
    }
  }

  private static void store(SecretStore secrets, String name, Certificates.Identity identity) {
    char[] key = Pem.privateKey(identity.privateKey());
    String cert = Pem.certificate(identity.certificate());
    byte[] bytes = new byte[key.length + cert.length()];
    for (int i = 0; i < key.length; i++) {
      bytes[i] = (byte) key[i];
    }
    byte[] c = cert.getBytes(StandardCharsets.US_ASCII);
    System.arraycopy(c, 0, bytes, key.length, c.length);
    try {
      secrets.put(name, bytes);
    } finally {
      Arrays.fill(key, '\0');
      Arrays.fill(bytes, (byte) 0);
    }
  }
}
