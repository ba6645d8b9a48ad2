package io.bulwark.cli;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Date;
import java.util.List;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * Certificates for the stand-in appliance, made with the FIPS module: EC P-256 keys, a CA, server
 * certificates it issues for chosen names, and self-signed server certificates like the one the
 * appliance makes on its first start.
 */
final class Certificates {
  private Certificates() {}

  /** A key pair and its certificate chain, the certificate first. */
  record Identity(PrivateKey key, List<X509Certificate> chain) {
    X509Certificate certificate() {
      return chain.get(0);
    }

    /** Writes the certificate as PEM to {@code file}. */
    Path writePem(Path file) throws Exception {
      String pem =
          "-----BEGIN CERTIFICATE-----\n"
              + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                  .encodeToString(certificate().getEncoded())
              + "\n-----END CERTIFICATE-----\n";
      return Files.writeString(file, pem, StandardCharsets.US_ASCII);
    }
  }

  private static SecureRandom random;

  /** Returns the FIPS module's DRBG, installing the providers first. */
  private static synchronized SecureRandom random() throws Exception {
    if (random == null) {
      random = FipsProviders.install();
    }
    return random;
  }

  static KeyPair keys() throws Exception {
    SecureRandom drbg = random();
    KeyPairGenerator generator = KeyPairGenerator.getInstance("EC", "BCFIPS");
    generator.initialize(new ECGenParameterSpec("secp256r1"), drbg);
    return generator.generateKeyPair();
  }

  /** Returns a CA named {@code name}. */
  static Identity authority(String name) throws Exception {
    KeyPair keys = keys();
    X509Certificate ca = sign("CN=" + name, keys, "CN=" + name, keys.getPrivate(), true, List.of());
    return new Identity(keys.getPrivate(), List.of(ca));
  }

  /** Returns a server certificate issued by {@code ca} for these DNS names and IP addresses. */
  static Identity server(Identity ca, String... names) throws Exception {
    KeyPair keys = keys();
    X509Certificate cert =
        sign(
            "CN=" + names[0],
            keys,
            ca.certificate().getSubjectX500Principal().getName(),
            ca.key(),
            false,
            List.of(names));
    List<X509Certificate> chain = new ArrayList<>();
    chain.add(cert);
    chain.addAll(ca.chain());
    return new Identity(keys.getPrivate(), chain);
  }

  /** Returns a self-signed server certificate for these names, as the appliance makes one. */
  static Identity selfSigned(String... names) throws Exception {
    KeyPair keys = keys();
    X509Certificate cert =
        sign("CN=" + names[0], keys, "CN=" + names[0], keys.getPrivate(), false, List.of(names));
    return new Identity(keys.getPrivate(), List.of(cert));
  }

  private static X509Certificate sign(
      String subject,
      KeyPair subjectKeys,
      String issuer,
      PrivateKey issuerKey,
      boolean authority,
      List<String> names)
      throws Exception {
    byte[] serial = new byte[12];
    random().nextBytes(serial);
    Instant now = Instant.now();
    JcaX509v3CertificateBuilder builder =
        new JcaX509v3CertificateBuilder(
            new X500Name(issuer),
            new BigInteger(1, serial),
            Date.from(now.minus(Duration.ofDays(1))),
            Date.from(now.plus(Duration.ofDays(30))),
            new X500Name(subject),
            subjectKeys.getPublic());
    builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(authority));
    if (authority) {
      builder.addExtension(
          Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
    } else {
      builder.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature));
      GeneralName[] alternatives = new GeneralName[names.size()];
      for (int i = 0; i < names.size(); i++) {
        String n = names.get(i);
        alternatives[i] =
            new GeneralName(n.matches("[0-9.]+") ? GeneralName.iPAddress : GeneralName.dNSName, n);
      }
      builder.addExtension(Extension.subjectAlternativeName, false, new GeneralNames(alternatives));
    }
    return new JcaX509CertificateConverter()
        .setProvider("BCFIPS")
        .getCertificate(
            builder.build(
                new JcaContentSignerBuilder("SHA256withECDSA")
                    .setProvider("BCFIPS")
                    .setSecureRandom(random())
                    .build(issuerKey)));
  }
}
