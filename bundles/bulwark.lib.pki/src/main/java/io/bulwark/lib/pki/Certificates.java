package io.bulwark.lib.pki;

import java.io.IOException;
import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.MessageDigest;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.HexFormat;
import java.util.List;
import org.bouncycastle.asn1.x500.RDN;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x500.X500NameBuilder;
import org.bouncycastle.asn1.x500.style.BCStyle;
import org.bouncycastle.asn1.x500.style.IETFUtils;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.bouncycastle.operator.jcajce.JcaContentVerifierProviderBuilder;
import org.bouncycastle.pkcs.PKCS10CertificationRequest;
import org.bouncycastle.pkcs.PKCSException;
import org.bouncycastle.pkcs.jcajce.JcaPKCS10CertificationRequest;
import org.bouncycastle.pkcs.jcajce.JcaPKCS10CertificationRequestBuilder;

/**
 * Certificates of the appliance's agent authority, all ECDSA P-384 with SHA384withECDSA: the
 * authority's own self-signed root, PKCS#10 requests a node agent makes for the key it generated
 * itself, and the certificates the authority issues from them (for the agent, server and client
 * authentication; for the appliance's own side of the channel, client authentication).
 */
public final class Certificates {
  private Certificates() {}

  /** What an issued certificate may be used for. */
  public enum Usage {
    /** TLS client only (the appliance calling agents). */
    CLIENT,
    /** TLS server and client (a node agent). */
    SERVER_AND_CLIENT
  }

  /** A key pair and its certificate. */
  public record Identity(PrivateKey privateKey, X509Certificate certificate) {}

  /** A verified certificate request: the name it asks for and the key it proves it holds. */
  public record Request(String commonName, PublicKey publicKey) {}

  /**
   * Creates a self-signed certificate authority named {@code commonName}, valid for {@code
   * validity} from five minutes before {@code now}, that may issue end-entity certificates only.
   */
  public static Identity authority(
      String commonName, Instant now, Duration validity, SecureRandom random) {
    KeyPair keys = EcKeys.generate(random);
    X500Name name = name(commonName);
    try {
      X509v3CertificateBuilder builder =
          new JcaX509v3CertificateBuilder(
              name,
              serial(random),
              Date.from(now.minus(Duration.ofMinutes(5))),
              Date.from(now.plus(validity)),
              name,
              keys.getPublic());
      JcaX509ExtensionUtils ext = new JcaX509ExtensionUtils();
      builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(0));
      builder.addExtension(
          Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
      builder.addExtension(
          Extension.subjectKeyIdentifier, false, ext.createSubjectKeyIdentifier(keys.getPublic()));
      return new Identity(keys.getPrivate(), sign(builder, keys.getPrivate(), random));
    } catch (GeneralSecurityException | IOException e) {
      throw new IllegalStateException(
          "the FIPS module could not create the authority: " + e.getMessage(), e);
    }
  }

  /** Returns a PKCS#10 request (PEM) for {@code keys}, asking for {@code commonName}. */
  public static String request(KeyPair keys, String commonName, SecureRandom random) {
    try {
      PKCS10CertificationRequest csr =
          new JcaPKCS10CertificationRequestBuilder(name(commonName), keys.getPublic())
              .build(
                  new JcaContentSignerBuilder(EcKeys.SIGNATURE)
                      .setProvider("BCFIPS")
                      .setSecureRandom(random)
                      .build(keys.getPrivate()));
      return Pem.encode("CERTIFICATE REQUEST", csr.getEncoded());
    } catch (OperatorCreationException | IOException e) {
      throw new IllegalStateException(
          "the FIPS module could not sign the certificate request: " + e.getMessage(), e);
    }
  }

  /**
   * Reads and verifies a PEM certificate request: its signature must verify with its own key, which
   * must be ECDSA P-384, and it must name a subject (CN).
   *
   * @throws IllegalArgumentException naming what is wrong
   */
  public static Request readRequest(String pem) {
    List<byte[]> blocks = Pem.decode("CERTIFICATE REQUEST", pem);
    if (blocks.size() != 1) {
      throw new IllegalArgumentException(
          "expected one PEM CERTIFICATE REQUEST block, found " + blocks.size());
    }
    try {
      JcaPKCS10CertificationRequest csr =
          new JcaPKCS10CertificationRequest(blocks.get(0)).setProvider("BCFIPS");
      PublicKey key = csr.getPublicKey();
      if (!EcKeys.isP384(key)) {
        throw new IllegalArgumentException(
            "the certificate request's key is not ECDSA P-384 (" + key.getAlgorithm() + ")");
      }
      if (!csr.isSignatureValid(
          new JcaContentVerifierProviderBuilder().setProvider("BCFIPS").build(key))) {
        throw new IllegalArgumentException(
            "the certificate request's signature does not verify with its own key");
      }
      return new Request(commonName(csr.getSubject()), key);
    } catch (GeneralSecurityException
        | OperatorCreationException
        | PKCSException
        | IOException
        | RuntimeException e) {
      if (e instanceof IllegalArgumentException iae) {
        throw iae;
      }
      throw new IllegalArgumentException(
          "the certificate request cannot be read: " + e.getMessage(), e);
    }
  }

  /**
   * Issues a certificate for {@code subjectKey} named {@code commonName}, with {@code names} as
   * subject alternative names (IP addresses or DNS names), signed by {@code issuer}.
   */
  public static X509Certificate issue(
      Identity issuer,
      PublicKey subjectKey,
      String commonName,
      List<String> names,
      Usage usage,
      Instant now,
      Duration validity,
      SecureRandom random) {
    try {
      JcaX509ExtensionUtils ext = new JcaX509ExtensionUtils();
      X509v3CertificateBuilder builder =
          new JcaX509v3CertificateBuilder(
              issuer.certificate(),
              serial(random),
              Date.from(now.minus(Duration.ofMinutes(5))),
              Date.from(now.plus(validity)),
              name(commonName),
              subjectKey);
      builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
      builder.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature));
      builder.addExtension(
          Extension.extendedKeyUsage,
          false,
          usage == Usage.CLIENT
              ? new ExtendedKeyUsage(KeyPurposeId.id_kp_clientAuth)
              : new ExtendedKeyUsage(
                  new KeyPurposeId[] {
                    KeyPurposeId.id_kp_serverAuth, KeyPurposeId.id_kp_clientAuth
                  }));
      builder.addExtension(
          Extension.authorityKeyIdentifier,
          false,
          ext.createAuthorityKeyIdentifier(issuer.certificate()));
      builder.addExtension(
          Extension.subjectKeyIdentifier, false, ext.createSubjectKeyIdentifier(subjectKey));
      if (!names.isEmpty()) {
        List<GeneralName> alt = new ArrayList<>();
        for (String n : names) {
          alt.add(
              new GeneralName(
                  looksLikeAddress(n) ? GeneralName.iPAddress : GeneralName.dNSName, n));
        }
        builder.addExtension(
            Extension.subjectAlternativeName,
            false,
            new GeneralNames(alt.toArray(GeneralName[]::new)));
      }
      return sign(builder, issuer.privateKey(), random);
    } catch (GeneralSecurityException | IOException e) {
      throw new IllegalStateException(
          "the FIPS module could not issue the certificate: " + e.getMessage(), e);
    }
  }

  /** Returns the subject's common name. */
  public static String commonName(X509Certificate certificate) {
    return commonName(X500Name.getInstance(certificate.getSubjectX500Principal().getEncoded()));
  }

  /** Returns the serial number in lower-case hex. */
  public static String serial(X509Certificate certificate) {
    return certificate.getSerialNumber().toString(16);
  }

  /** Returns the SHA-256 fingerprint of the DER encoding, lower-case hex without separators. */
  public static String fingerprint(X509Certificate certificate) {
    try {
      return HexFormat.of()
          .formatHex(
              MessageDigest.getInstance("SHA-256", "BCFIPS").digest(certificate.getEncoded()));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("cannot fingerprint a certificate: " + e.getMessage(), e);
    }
  }

  private static X509Certificate sign(
      X509v3CertificateBuilder builder, PrivateKey key, SecureRandom random)
      throws GeneralSecurityException {
    try {
      return new JcaX509CertificateConverter()
          .setProvider("BCFIPS")
          .getCertificate(
              builder.build(
                  new JcaContentSignerBuilder(EcKeys.SIGNATURE)
                      .setProvider("BCFIPS")
                      .setSecureRandom(random)
                      .build(key)));
    } catch (OperatorCreationException e) {
      throw new GeneralSecurityException(e.getMessage(), e);
    }
  }

  private static X500Name name(String commonName) {
    if (commonName == null || commonName.isBlank()) {
      throw new IllegalArgumentException("a certificate needs a common name");
    }
    return new X500NameBuilder(BCStyle.INSTANCE).addRDN(BCStyle.CN, commonName).build();
  }

  private static String commonName(X500Name name) {
    RDN[] cn = name.getRDNs(BCStyle.CN);
    if (cn.length != 1) {
      throw new IllegalArgumentException(
          "the subject names " + cn.length + " common names, not one");
    }
    return IETFUtils.valueToString(cn[0].getFirst().getValue());
  }

  private static BigInteger serial(SecureRandom random) {
    byte[] b = new byte[16];
    random.nextBytes(b);
    b[0] &= 0x7f;
    return new BigInteger(1, b).setBit(120);
  }

  private static boolean looksLikeAddress(String name) {
    return name.contains(":") || name.matches("[0-9.]+");
  }
}
