package io.bulwark.security.internal;

import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.cert.CertificateExpiredException;
import java.security.cert.CertificateNotYetValidException;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.security.interfaces.RSAPublicKey;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import org.bouncycastle.asn1.ASN1Encodable;
import org.bouncycastle.asn1.ASN1ObjectIdentifier;
import org.bouncycastle.asn1.sec.SECObjectIdentifiers;
import org.bouncycastle.asn1.x509.SubjectPublicKeyInfo;
import org.bouncycastle.crypto.fips.FipsUnapprovedOperationError;

/**
 * Judges a server identity before the admin plane uses it: the private key belongs to the first
 * certificate (a signature made with it verifies), each certificate is issued and signed by the
 * next one, every certificate is valid now, the key is EC P-256, EC P-384 or RSA of 2048 bits or
 * more, and the server certificate, if it restricts its use, allows TLS server authentication. Used
 * by {@link AdminTlsIdentity#importPem}.
 */
final class IdentityCheck {
  private static final String SERVER_AUTH = "1.3.6.1.5.5.7.3.1";
  private static final String ANY_USAGE = "2.5.29.37.0";

  private IdentityCheck() {}

  /**
   * Checks {@code identity} at {@code now}.
   *
   * @throws IllegalArgumentException naming the first problem found
   */
  static void require(ServerIdentity identity, Instant now, SecureRandom random) {
    List<X509Certificate> chain = identity.chain();
    requireAllowedKey(identity.certificate());
    requireKeyMatches(identity.privateKey(), identity.certificate(), random);
    for (int i = 0; i < chain.size(); i++) {
      requireValid(chain.get(i), i + 1, now);
    }
    for (int i = 0; i + 1 < chain.size(); i++) {
      requireIssuedBy(chain.get(i), i + 1, chain.get(i + 1));
    }
    requireServerUse(identity.certificate());
  }

  private static void requireAllowedKey(X509Certificate certificate) {
    PublicKey key = certificate.getPublicKey();
    if (key instanceof RSAPublicKey) {
      int bits = ((RSAPublicKey) key).getModulus().bitLength();
      if (bits < 2048) {
        throw new IllegalArgumentException(
            "the server key is RSA of " + bits + " bits: RSA keys need 2048 bits or more");
      }
      return;
    }
    if (key.getAlgorithm().equals("EC") || key.getAlgorithm().equals("ECDSA")) {
      ASN1Encodable parameters =
          SubjectPublicKeyInfo.getInstance(key.getEncoded()).getAlgorithm().getParameters();
      if (SECObjectIdentifiers.secp256r1.equals(parameters)
          || SECObjectIdentifiers.secp384r1.equals(parameters)) {
        return;
      }
      throw new IllegalArgumentException(
          "the server key is on the EC curve "
              + (parameters instanceof ASN1ObjectIdentifier
                  ? parameters
                  : "given by explicit parameters")
              + ": only P-256 (secp256r1) and P-384 (secp384r1) are allowed");
    }
    throw new IllegalArgumentException(
        "the server key is "
            + key.getAlgorithm()
            + ": only EC P-256, EC P-384 and RSA of 2048 bits or more are allowed");
  }

  private static void requireKeyMatches(
      PrivateKey privateKey, X509Certificate certificate, SecureRandom random) {
    String algorithm =
        certificate.getPublicKey() instanceof RSAPublicKey ? "SHA256withRSA" : "SHA384withECDSA";
    byte[] challenge = new byte[32];
    random.nextBytes(challenge);
    boolean matches;
    try {
      Signature signer = Signature.getInstance(algorithm, "BCFIPS");
      signer.initSign(privateKey, random);
      signer.update(challenge);
      byte[] signature = signer.sign();
      Signature verifier = Signature.getInstance(algorithm, "BCFIPS");
      verifier.initVerify(certificate.getPublicKey());
      verifier.update(challenge);
      matches = verifier.verify(signature);
    } catch (GeneralSecurityException | RuntimeException | FipsUnapprovedOperationError e) {
      matches = false;
    }
    if (!matches) {
      throw new IllegalArgumentException(
          "the private key does not belong to the server certificate "
              + subject(certificate, 1)
              + ": give the key that was used for this certificate's request");
    }
  }

  private static void requireValid(X509Certificate certificate, int position, Instant now) {
    try {
      certificate.checkValidity(Date.from(now));
    } catch (CertificateExpiredException e) {
      throw new IllegalArgumentException(
          subject(certificate, position) + " expired on " + certificate.getNotAfter().toInstant(),
          e);
    } catch (CertificateNotYetValidException e) {
      throw new IllegalArgumentException(
          subject(certificate, position)
              + " is not valid before "
              + certificate.getNotBefore().toInstant()
              + ": check the appliance's clock",
          e);
    }
  }

  private static void requireIssuedBy(
      X509Certificate certificate, int position, X509Certificate issuer) {
    boolean signed;
    try {
      certificate.verify(issuer.getPublicKey(), "BCFIPS");
      signed = true;
    } catch (GeneralSecurityException | RuntimeException e) {
      signed = false;
    }
    if (!signed || !certificate.getIssuerX500Principal().equals(issuer.getSubjectX500Principal())) {
      throw new IllegalArgumentException(
          subject(issuer, position + 1)
              + " is not the issuer of "
              + subject(certificate, position)
              + ", which names "
              + certificate.getIssuerX500Principal().getName()
              + " as its issuer: give the server certificate first, then each issuing CA in order");
    }
  }

  private static void requireServerUse(X509Certificate certificate) {
    List<String> usages;
    try {
      usages = certificate.getExtendedKeyUsage();
    } catch (CertificateParsingException e) {
      throw new IllegalArgumentException(
          "the extended key usage of " + subject(certificate, 1) + " cannot be read", e);
    }
    if (usages != null && !usages.contains(SERVER_AUTH) && !usages.contains(ANY_USAGE)) {
      throw new IllegalArgumentException(
          subject(certificate, 1)
              + " is not for TLS servers: its extended key usage lacks serverAuth");
    }
  }

  private static String subject(X509Certificate certificate, int position) {
    return "certificate " + position + " (" + certificate.getSubjectX500Principal().getName() + ")";
  }
}
