package io.bulwark.security.internal;

import java.math.BigInteger;
import java.net.InetAddress;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x500.X500NameBuilder;
import org.bouncycastle.asn1.x500.style.BCStyle;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.CertIOException;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * Creates the admin plane's first identity: an ECDSA P-384 key pair and a self-signed
 * SHA384withECDSA certificate for the appliance's host name (CN), with the subject alternative
 * names localhost, 127.0.0.1 and the host name, valid for {@value #VALID_DAYS} days (the most
 * browsers accept). Made with the FIPS module through bcpkix. Used by {@link AdminTlsIdentity} on
 * first start.
 */
final class SelfSignedCertificate {
  /** How long the certificate is valid. */
  static final int VALID_DAYS = 825;

  private SelfSignedCertificate() {}

  /**
   * Generates the key pair and the certificate.
   *
   * @throws IllegalStateException if the FIPS module refuses (the message says what)
   */
  static ServerIdentity generate(String hostName, Instant now, SecureRandom random) {
    try {
      KeyPairGenerator generator = KeyPairGenerator.getInstance("EC", "BCFIPS");
      generator.initialize(new ECGenParameterSpec("secp384r1"), random);
      KeyPair keys = generator.generateKeyPair();
      X500Name subject = new X500NameBuilder(BCStyle.INSTANCE).addRDN(BCStyle.CN, hostName).build();
      byte[] serial = new byte[16];
      random.nextBytes(serial);
      JcaX509v3CertificateBuilder builder =
          new JcaX509v3CertificateBuilder(
              subject,
              new BigInteger(1, serial),
              Date.from(now.minus(Duration.ofMinutes(5))),
              Date.from(now.plus(Duration.ofDays(VALID_DAYS))),
              subject,
              keys.getPublic());
      builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
      builder.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature));
      builder.addExtension(
          Extension.extendedKeyUsage, false, new ExtendedKeyUsage(KeyPurposeId.id_kp_serverAuth));
      builder.addExtension(
          Extension.subjectAlternativeName, false, new GeneralNames(alternativeNames(hostName)));
      X509Certificate certificate =
          new JcaX509CertificateConverter()
              .setProvider("BCFIPS")
              .getCertificate(
                  builder.build(
                      new JcaContentSignerBuilder("SHA384withECDSA")
                          .setProvider("BCFIPS")
                          .setSecureRandom(random)
                          .build(keys.getPrivate())));
      return new ServerIdentity(keys.getPrivate(), List.of(certificate));
    } catch (GeneralSecurityException | OperatorCreationException | CertIOException e) {
      throw new IllegalStateException(
          "the FIPS module could not create the admin TLS certificate: " + e.getMessage(), e);
    }
  }

  /** Returns this machine's host name, or {@code localhost} if it has none. */
  static String localHostName() {
    try {
      String name = InetAddress.getLocalHost().getHostName();
      return name == null || name.isBlank() ? "localhost" : name;
    } catch (java.io.IOException e) {
      return "localhost";
    }
  }

  private static GeneralName[] alternativeNames(String hostName) {
    Set<String> dnsNames = new LinkedHashSet<>(List.of("localhost"));
    Set<String> addresses = new LinkedHashSet<>(List.of("127.0.0.1"));
    if (looksLikeAddress(hostName)) {
      addresses.add(hostName);
    } else {
      dnsNames.add(hostName);
    }
    List<GeneralName> names = new ArrayList<>();
    dnsNames.forEach(n -> names.add(new GeneralName(GeneralName.dNSName, n)));
    addresses.forEach(a -> names.add(new GeneralName(GeneralName.iPAddress, a)));
    return names.toArray(GeneralName[]::new);
  }

  private static boolean looksLikeAddress(String name) {
    return name.contains(":") || name.matches("[0-9.]+");
  }
}
