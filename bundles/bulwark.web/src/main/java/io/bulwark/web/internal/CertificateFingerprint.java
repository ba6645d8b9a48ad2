package io.bulwark.web.internal;

import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.cert.X509Certificate;
import java.util.HexFormat;

/**
 * The SHA-256 fingerprint of a certificate as operators compare it ("AB:CD:…"), so that an admin
 * can check the self-signed certificate a browser shows against the one the console printed.
 */
final class CertificateFingerprint {
  private CertificateFingerprint() {}

  static String sha256(X509Certificate certificate) {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(certificate.getEncoded());
      return HexFormat.ofDelimiter(":").withUpperCase().formatHex(digest);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("cannot fingerprint the admin certificate: " + e, e);
    }
  }
}
