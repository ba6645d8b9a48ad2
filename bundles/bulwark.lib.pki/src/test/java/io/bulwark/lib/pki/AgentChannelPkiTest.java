package io.bulwark.lib.pki;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;
import org.bouncycastle.jcajce.provider.BouncyCastleFipsProvider;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The agent channel's PKI through the FIPS module in approved-only mode: an authority issues from a
 * node's own request, the two sides complete a TLS 1.3 handshake only with certificates of that
 * authority, and signed messages verify only unchanged and with the signer's key.
 */
class AgentChannelPkiTest {
  private static SecureRandom random;
  private static final Instant NOW = Instant.now();

  @BeforeAll
  static void module() {
    BouncyCastleFipsProvider fips = FipsProviders.establish();
    random = fips.getDefaultSecureRandom();
    org.bouncycastle.crypto.CryptoServicesRegistrar.setSecureRandom(random);
  }

  @Test
  void theAuthorityIssuesFromTheNodesOwnRequest() throws Exception {
    Certificates.Identity ca =
        Certificates.authority("Bulwark agent authority", NOW, Duration.ofDays(3650), random);
    KeyPair node = EcKeys.generate(random);
    String csr = Certificates.request(node, "gpu-node-07", random);
    Certificates.Request read = Certificates.readRequest(csr);
    assertEquals("gpu-node-07", read.commonName());
    X509Certificate cert =
        Certificates.issue(
            ca,
            read.publicKey(),
            read.commonName(),
            List.of("gpu-node-07", "10.0.0.7"),
            Certificates.Usage.SERVER_AND_CLIENT,
            NOW,
            Duration.ofDays(365),
            random);
    cert.verify(ca.certificate().getPublicKey(), "BCFIPS");
    assertEquals("gpu-node-07", Certificates.commonName(cert));
    assertEquals(List.of("1.3.6.1.5.5.7.3.1", "1.3.6.1.5.5.7.3.2"), cert.getExtendedKeyUsage());
    assertEquals(-1, cert.getBasicConstraints());
    assertEquals(0, ca.certificate().getBasicConstraints());
    X509Certificate again = Pem.certificate(Pem.certificate(cert));
    assertEquals(cert, again);
    assertEquals(64, Certificates.fingerprint(cert).length());
  }

  @Test
  void aTamperedOrWeakRequestIsRefused() throws Exception {
    KeyPair node = EcKeys.generate(random);
    String csr = Certificates.request(node, "gpu-node-07", random);
    byte[] der = Pem.decode("CERTIFICATE REQUEST", csr).get(0);
    der[der.length / 2] ^= 0x01;
    String tampered = Pem.encode("CERTIFICATE REQUEST", der);
    assertThrows(IllegalArgumentException.class, () -> Certificates.readRequest(tampered));
    KeyPairGenerator g = KeyPairGenerator.getInstance("EC", "BCFIPS");
    g.initialize(new ECGenParameterSpec("secp256r1"), random);
    String p256 = Certificates.request(g.generateKeyPair(), "gpu-node-07", random);
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> Certificates.readRequest(p256));
    assertTrue(e.getMessage().contains("P-384"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> Certificates.readRequest("not pem"));
  }

  @Test
  void privateKeysRoundTripThroughPem() {
    KeyPair node = EcKeys.generate(random);
    char[] pem = Pem.privateKey(node.getPrivate());
    String text = "bulwark";
    String sig = SignedMessages.sign(Pem.ecPrivateKey(pem), text, random);
    assertTrue(SignedMessages.verify(node.getPublic(), text, sig));
  }

  @Test
  void signaturesVerifyOnlyUnchangedAndWithTheSignersKey() {
    KeyPair a = EcKeys.generate(random);
    KeyPair b = EcKeys.generate(random);
    byte[] body = "{\"action\":\"gpu-reset\",\"gpu\":3}".getBytes(StandardCharsets.UTF_8);
    String nonce = SignedMessages.nonce(random);
    long t = NOW.toEpochMilli();
    String text = SignedMessages.requestText("POST", "/v1/actions", t, nonce, body);
    String sig = SignedMessages.sign(a.getPrivate(), text, random);
    assertTrue(SignedMessages.verify(a.getPublic(), text, sig));
    assertFalse(SignedMessages.verify(b.getPublic(), text, sig));
    byte[] other = "{\"action\":\"gpu-reset\",\"gpu\":4}".getBytes(StandardCharsets.UTF_8);
    assertFalse(
        SignedMessages.verify(
            a.getPublic(),
            SignedMessages.requestText("POST", "/v1/actions", t, nonce, other),
            sig));
    assertFalse(SignedMessages.verify(a.getPublic(), text, "garbage"));
    assertFalse(SignedMessages.verify(a.getPublic(), text, ""));
    assertTrue(SignedMessages.fresh(t + 60_000, NOW));
    assertFalse(SignedMessages.fresh(t + 600_000, NOW));
  }

  @Test
  void theHandshakeNeedsCertificatesOfTheAuthorityOnBothSides() throws Exception {
    Certificates.Identity ca =
        Certificates.authority("Bulwark agent authority", NOW, Duration.ofDays(3650), random);
    Certificates.Identity other =
        Certificates.authority("Someone else", NOW, Duration.ofDays(3650), random);
    Certificates.Identity agent = issued(ca, "gpu-node-07", Certificates.Usage.SERVER_AND_CLIENT);
    Certificates.Identity appliance = issued(ca, "bulwark-appliance", Certificates.Usage.CLIENT);
    Certificates.Identity stranger = issued(other, "bulwark-appliance", Certificates.Usage.CLIENT);

    SSLContext server =
        MutualTls.context(
            agent.privateKey(), List.of(agent.certificate()), ca.certificate(), random);
    SSLContext good =
        MutualTls.context(
            appliance.privateKey(), List.of(appliance.certificate()), ca.certificate(), random);
    SSLContext bad =
        MutualTls.context(
            stranger.privateKey(), List.of(stranger.certificate()), ca.certificate(), random);

    assertEquals("gpu-node-07", exchange(server, good));
    assertThrows(Exception.class, () -> exchange(server, bad));
  }

  private static Certificates.Identity issued(
      Certificates.Identity ca, String cn, Certificates.Usage usage) {
    KeyPair keys = EcKeys.generate(random);
    return new Certificates.Identity(
        keys.getPrivate(),
        Certificates.issue(
            ca,
            keys.getPublic(),
            cn,
            List.of("127.0.0.1"),
            usage,
            NOW,
            Duration.ofDays(30),
            random));
  }

  /**
   * Completes one handshake and one byte each way; returns the server's CN as the client saw it.
   */
  private static String exchange(SSLContext server, SSLContext client) throws Exception {
    try (SSLServerSocket listen =
        (SSLServerSocket) server.getServerSocketFactory().createServerSocket(0)) {
      listen.setSSLParameters(MutualTls.parameters(server));
      listen.setNeedClientAuth(true);
      CompletableFuture<Void> served =
          CompletableFuture.runAsync(
              () -> {
                try (SSLSocket s = (SSLSocket) listen.accept()) {
                  s.setSoTimeout(10_000);
                  InputStream in = s.getInputStream();
                  int b = in.read();
                  OutputStream out = s.getOutputStream();
                  out.write(b);
                  out.flush();
                } catch (java.io.IOException e) {
                  throw new java.io.UncheckedIOException(e);
                }
              });
      try (SSLSocket s =
          (SSLSocket) client.getSocketFactory().createSocket("127.0.0.1", listen.getLocalPort())) {
        s.setSSLParameters(MutualTls.parameters(client));
        s.setSoTimeout(10_000);
        s.getOutputStream().write(42);
        s.getOutputStream().flush();
        int back = s.getInputStream().read();
        if (back != 42) {
          throw new SSLException("the server closed the connection (" + back + ")");
        }
        assertEquals("TLSv1.3", s.getSession().getProtocol());
        String cn =
            Certificates.commonName((X509Certificate) s.getSession().getPeerCertificates()[0]);
        served.get(10, TimeUnit.SECONDS);
        return cn;
      }
    }
  }
}
