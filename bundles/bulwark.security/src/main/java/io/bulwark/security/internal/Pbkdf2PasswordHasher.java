package io.bulwark.security.internal;

import io.bulwark.api.security.CryptoModule;
import io.bulwark.api.security.PasswordHasher;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Objects;
import org.bouncycastle.crypto.PasswordBasedDeriver;
import org.bouncycastle.crypto.PasswordConverter;
import org.bouncycastle.crypto.fips.FipsPBKD;
import org.bouncycastle.crypto.fips.FipsSHS;
import org.bouncycastle.crypto.fips.FipsUnapprovedOperationError;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.metatype.annotations.Designate;

/**
 * Hashes and verifies passwords with PBKDF2-HMAC-SHA-512 in the BouncyCastle FIPS module: UTF-8
 * password bytes, a 16-byte salt from the module's DRBG, a 64-byte derived key, comparison in
 * constant time. Every buffer that held the password or the derived key is cleared after use.
 */
@Component(
    service = PasswordHasher.class,
    configurationPid = Pbkdf2PasswordHasher.PID,
    configurationPolicy = ConfigurationPolicy.OPTIONAL)
@Designate(ocd = PasswordHashingConfig.class)
public final class Pbkdf2PasswordHasher implements PasswordHasher {
  /** The configuration PID. */
  public static final String PID = "io.bulwark.security.passwords";

  private final SecureRandom random;
  private final int iterations;

  /**
   * Reads the configuration.
   *
   * @throws IllegalArgumentException if {@code iterations} is out of range (the message says so)
   */
  @Activate
  public Pbkdf2PasswordHasher(@Reference CryptoModule crypto, PasswordHashingConfig config) {
    this(crypto, PasswordHashingOptions.from(config));
  }

  Pbkdf2PasswordHasher(CryptoModule crypto, PasswordHashingOptions options) {
    this.random = crypto.random();
    this.iterations = options.iterations();
  }

  @Override
  public String hash(char[] password) {
    Objects.requireNonNull(password, "password");
    byte[] salt = new byte[EncodedPasswordHash.SALT_BYTES];
    random.nextBytes(salt);
    byte[] derived = derive(password, salt, iterations);
    if (derived == null) {
      throw new IllegalArgumentException(
          "the password is too short to hash: the FIPS module needs at least 14 bytes");
    }
    try {
      return new EncodedPasswordHash(iterations, salt, derived).encode();
    } finally {
      Arrays.fill(derived, (byte) 0);
    }
  }

  @Override
  public boolean verify(char[] password, String encodedHash) {
    EncodedPasswordHash stored = EncodedPasswordHash.parse(encodedHash);
    if (password == null) {
      return false;
    }
    byte[] derived = derive(password, stored.salt(), stored.iterations());
    if (derived == null) {
      return false;
    }
    byte[] expected = stored.hash();
    try {
      return org.bouncycastle.util.Arrays.constantTimeAreEqual(derived, expected);
    } finally {
      Arrays.fill(derived, (byte) 0);
      Arrays.fill(expected, (byte) 0);
    }
  }

  @Override
  public boolean needsRehash(String encodedHash) {
    return EncodedPasswordHash.parse(encodedHash).iterations() < iterations;
  }

  /** Returns the derived key, or null if the module refuses a password this short. */
  private static byte[] derive(char[] password, byte[] salt, int iterations) {
    byte[] passwordBytes = PasswordConverter.UTF8.convert(password);
    try {
      FipsPBKD.Parameters parameters =
          FipsPBKD.PBKDF2
              .using(FipsSHS.Algorithm.SHA512_HMAC, passwordBytes)
              .withIterationCount(iterations)
              .withSalt(salt);
      return new FipsPBKD.DeriverFactory()
          .createDeriver(parameters)
          .deriveKey(PasswordBasedDeriver.KeyType.CIPHER, EncodedPasswordHash.HASH_BYTES);
    } catch (FipsUnapprovedOperationError e) {
      return null;
    } finally {
      Arrays.fill(passwordBytes, (byte) 0);
    }
  }
}
