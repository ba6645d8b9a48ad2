package io.bulwark.audit.internal;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPairGenerator;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.security.Security;
import java.security.Signature;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.bouncycastle.jcajce.provider.BouncyCastleFipsProvider;

/**
 * The audit log's cryptography, all of it through JCA from the FIPS module's provider {@code
 * BCFIPS} and no other: SHA-256 for the chain, HMAC-SHA-256 for the record seals, the FIPS DRBG for
 * keys, ECDSA P-384 for export signatures. On the appliance the security bundle installs the
 * provider; the offline verifier and tests install it here when it is missing.
 */
final class FipsCrypto {
  static final String PROVIDER = "BCFIPS";
  static final String SIGNATURE_ALGORITHM = "SHA384withECDSA";
  private static final HexFormat HEX = HexFormat.of();

  private FipsCrypto() {}

  /** Installs the FIPS provider unless it is already installed. */
  static synchronized void install() {
    if (Security.getProvider(PROVIDER) == null) {
      Security.addProvider(new BouncyCastleFipsProvider());
    }
  }

  static MessageDigest sha256() {
    try {
      install();
      return MessageDigest.getInstance("SHA-256", PROVIDER);
    } catch (GeneralSecurityException e) {
      throw unavailable("SHA-256", e);
    }
  }

  static Mac hmac(byte[] key) {
    try {
      install();
      Mac mac = Mac.getInstance("HmacSHA256", PROVIDER);
      mac.init(new SecretKeySpec(key, "HmacSHA256"));
      return mac;
    } catch (GeneralSecurityException e) {
      throw unavailable("HMAC-SHA-256", e);
    }
  }

  static SecureRandom drbg() {
    try {
      install();
      return SecureRandom.getInstance("DEFAULT", PROVIDER);
    } catch (GeneralSecurityException e) {
      throw unavailable("the DRBG", e);
    }
  }

  static Signature signature() {
    try {
      install();
      return Signature.getInstance(SIGNATURE_ALGORITHM, PROVIDER);
    } catch (GeneralSecurityException e) {
      throw unavailable(SIGNATURE_ALGORITHM, e);
    }
  }

  static KeyFactory ecKeys() {
    try {
      install();
      return KeyFactory.getInstance("EC", PROVIDER);
    } catch (GeneralSecurityException e) {
      throw unavailable("EC keys", e);
    }
  }

  static KeyPairGenerator ecKeyPairs() {
    try {
      install();
      return KeyPairGenerator.getInstance("EC", PROVIDER);
    } catch (GeneralSecurityException e) {
      throw unavailable("EC key generation", e);
    }
  }

  /** Returns the SHA-256 of the UTF-8 text, as lower-case hex. */
  static String sha256Hex(MessageDigest digest, String text) {
    return HEX.formatHex(digest.digest(text.getBytes(StandardCharsets.UTF_8)));
  }

  /** Returns the HMAC of the UTF-8 text, as lower-case hex. */
  static String hmacHex(Mac mac, String text) {
    return HEX.formatHex(mac.doFinal(text.getBytes(StandardCharsets.UTF_8)));
  }

  private static IllegalStateException unavailable(String what, GeneralSecurityException e) {
    return new IllegalStateException(
        "the FIPS crypto module ("
            + PROVIDER
            + ") cannot provide "
            + what
            + ": "
            + e.getMessage()
            + "; check that bc-fips is on the framework class path and passed its self-tests",
        e);
  }
}
