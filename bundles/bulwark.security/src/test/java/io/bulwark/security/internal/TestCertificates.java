package io.bulwark.security.internal;

import java.io.IOException;
import java.io.StringWriter;
import java.math.BigInteger;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * Makes certificate chains for import tests with the FIPS module: a CA and a server certificate it
 * issued, with chosen curves and validity, as PEM text.
 */
final class TestCertificates {
  private TestCertificates() {}

  /** A key pair and its certificate. */
  record Issued(KeyPair keys, X509Certificate certificate) {}

  static KeyPair ecKeys(String curve) throws Exception {
    KeyPairGenerator generator = KeyPairGenerator.getInstance("EC", "BCFIPS");
    generator.initialize(new ECGenParameterSpec(curve), Fips.module().random());
    return generator.generateKeyPair();
  }

  /** Returns a CA certificate for {@code name}, self-signed. */
  static Issued authority(String name, Instant notBefore, Instant notAfter) throws Exception {
    KeyPair keys = ecKeys("secp384r1");
    return new Issued(keys, sign(name, keys, name, keys.getPrivate(), notBefore, notAfter, true));
  }

  /** Returns a server certificate for {@code name} with a P-256 key, issued by {@code issuer}. */
  static Issued server(String name, Issued issuer, Instant notBefore, Instant notAfter)
      throws Exception {
    return server(name, issuer, notBefore, notAfter, "secp256r1");
  }

  /** Returns a server certificate for {@code name} with a key on {@code curve}. */
  static Issued server(
      String name, Issued issuer, Instant notBefore, Instant notAfter, String curve)
      throws Exception {
    KeyPair keys = ecKeys(curve);
    return new Issued(
        keys,
        sign(
            name,
            keys,
            issuer.certificate().getSubjectX500Principal().getName(),
            issuer.keys().getPrivate(),
            notBefore,
            notAfter,
            false));
  }

  /** Returns a server certificate and its CA, valid from a day ago for a year. */
  static Issued[] validChain(String serverName) throws Exception {
    Instant now = Instant.now();
    Issued ca =
        authority(
            "CN=Bulwark Test CA", now.minus(Duration.ofDays(1)), now.plus(Duration.ofDays(3650)));
    Issued server =
        server(
            "CN=" + serverName, ca, now.minus(Duration.ofDays(1)), now.plus(Duration.ofDays(365)));
    return new Issued[] {server, ca};
  }

  static String pem(Object... items) throws IOException {
    StringWriter text = new StringWriter();
    try (JcaPEMWriter writer = new JcaPEMWriter(text)) {
      for (Object item : items) {
        writer.writeObject(item);
      }
    }
    return text.toString();
  }

  static char[] keyPem(PrivateKey key) throws IOException {
    return pem(key).toCharArray();
  }

  private static X509Certificate sign(
      String subject,
      KeyPair subjectKeys,
      String issuer,
      PrivateKey issuerKey,
      Instant notBefore,
      Instant notAfter,
      boolean authority)
      throws Exception {
    byte[] serial = new byte[12];
    Fips.module().random().nextBytes(serial);
    JcaX509v3CertificateBuilder builder =
        new JcaX509v3CertificateBuilder(
            new X500Name(issuer),
            new BigInteger(1, serial),
            Date.from(notBefore),
            Date.from(notAfter),
            new X500Name(subject),
            subjectKeys.getPublic());
    builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(authority));
    return new JcaX509CertificateConverter()
        .setProvider("BCFIPS")
        .getCertificate(
            builder.build(
                new JcaContentSignerBuilder("SHA384withECDSA")
                    .setProvider("BCFIPS")
                    .build(issuerKey)));
  }
}
