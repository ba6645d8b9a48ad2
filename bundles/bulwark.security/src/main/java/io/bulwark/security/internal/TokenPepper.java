package io.bulwark.security.internal;

import io.bulwark.api.security.SecretStore;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Hashes API token secrets with HMAC-SHA-256 in the FIPS module, keyed by a 256-bit pepper kept in
 * the {@link SecretStore} under {@value #SECRET_NAME} (made on first use), so that a copy of the
 * token table alone cannot be used to check guessed secrets. Thread-safe.
 */
final class TokenPepper {
  /** The name of the pepper in the secret store. */
  static final String SECRET_NAME = "api.token.pepper";

  /** How stored secret hashes start. */
  static final String PREFIX = "hmac-sha256$";

  private static final int PEPPER_BYTES = 32;

  private final SecretStore secrets;
  private final SecureRandom random;
  private byte[] pepper;

  TokenPepper(SecretStore secrets, SecureRandom random) {
    this.secrets = secrets;
    this.random = random;
  }

  /**
   * Returns {@code hmac-sha256$<base64url HMAC>} of {@code secret}.
   *
   * @throws IllegalStateException if the FIPS module refuses HMAC-SHA-256
   */
  String hash(byte[] secret) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256", "BCFIPS");
      mac.init(new SecretKeySpec(pepper(), "HmacSHA256"));
      return PREFIX + Base64.getUrlEncoder().withoutPadding().encodeToString(mac.doFinal(secret));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("the FIPS module refused HMAC-SHA-256: " + e.getMessage(), e);
    }
  }

  private synchronized byte[] pepper() {
    if (pepper == null) {
      byte[] stored = secrets.get(SECRET_NAME).orElse(null);
      if (stored == null || stored.length < PEPPER_BYTES) {
        stored = new byte[PEPPER_BYTES];
        random.nextBytes(stored);
        secrets.put(SECRET_NAME, stored);
      }
      pepper = stored;
    }
    return Arrays.copyOf(pepper, pepper.length);
  }
}
