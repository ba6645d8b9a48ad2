package io.bulwark.audit.internal;

import java.security.GeneralSecurityException;
import java.security.PublicKey;
import java.security.spec.X509EncodedKeySpec;
import java.util.Base64;

/**
 * Writes and reads a public key as PEM ({@code -----BEGIN PUBLIC KEY-----}, X.509
 * SubjectPublicKeyInfo), the form {@code openssl} and the offline verifier read.
 */
final class PublicKeyPem {
  private static final String BEGIN = "-----BEGIN PUBLIC KEY-----";
  private static final String END = "-----END PUBLIC KEY-----";

  private PublicKeyPem() {}

  static String encode(PublicKey key) {
    String body = Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(key.getEncoded());
    return BEGIN + "\n" + body + "\n" + END + "\n";
  }

  /**
   * Reads an EC public key from PEM text.
   *
   * @throws IllegalArgumentException if the text is not a PEM public key
   */
  static PublicKey decode(String pem) {
    int begin = pem.indexOf(BEGIN);
    int end = pem.indexOf(END);
    if (begin < 0 || end < begin) {
      throw new IllegalArgumentException("not a PEM public key (no " + BEGIN + " ... " + END + ")");
    }
    String body = pem.substring(begin + BEGIN.length(), end).replaceAll("\\s", "");
    try {
      return FipsCrypto.ecKeys()
          .generatePublic(new X509EncodedKeySpec(Base64.getDecoder().decode(body)));
    } catch (GeneralSecurityException | IllegalArgumentException e) {
      throw new IllegalArgumentException("not an EC public key: " + e.getMessage(), e);
    }
  }
}
