package io.bulwark.security.internal;

import java.util.Arrays;
import java.util.Base64;

/**
 * A stored password hash in its self-describing form, {@code
 * pbkdf2-sha512$<iterations>$<salt>$<hash>} with unpadded standard Base64. Parsing refuses anything
 * else without repeating the input. Used by {@link Pbkdf2PasswordHasher}.
 *
 * @param iterations the PBKDF2 iteration count
 * @param salt the salt, 16 bytes
 * @param hash the derived key, 64 bytes
 */
record EncodedPasswordHash(int iterations, byte[] salt, byte[] hash) {
  static final String SCHEME = "pbkdf2-sha512";
  static final int SALT_BYTES = 16;
  static final int HASH_BYTES = 64;

  private static final Base64.Encoder ENCODER = Base64.getEncoder().withoutPadding();

  EncodedPasswordHash {
    salt = salt.clone();
    hash = hash.clone();
  }

  /**
   * Parses a stored hash.
   *
   * @throws IllegalArgumentException if it is not in this form, or its iteration count is below the
   *     least allowed
   */
  static EncodedPasswordHash parse(String encoded) {
    if (encoded == null) {
      throw new IllegalArgumentException("the stored password hash is missing");
    }
    String[] parts = encoded.split("\\$", -1);
    if (parts.length != 4 || !parts[0].equals(SCHEME)) {
      throw new IllegalArgumentException(
          "the stored password hash is not in the form " + SCHEME + "$iterations$salt$hash");
    }
    int iterations;
    try {
      iterations = Integer.parseInt(parts[1]);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "the stored password hash has no valid iteration count", e);
    }
    if (iterations < PasswordHashingOptions.LEAST_ITERATIONS
        || iterations > PasswordHashingOptions.MOST_ITERATIONS) {
      throw new IllegalArgumentException(
          "the stored password hash uses "
              + iterations
              + " iterations, outside "
              + PasswordHashingOptions.LEAST_ITERATIONS
              + " to "
              + PasswordHashingOptions.MOST_ITERATIONS
              + ": it was not written by Bulwark");
    }
    byte[] salt = decode(parts[2], SALT_BYTES, "salt");
    byte[] hash = decode(parts[3], HASH_BYTES, "hash");
    return new EncodedPasswordHash(iterations, salt, hash);
  }

  /** Returns the stored form. */
  String encode() {
    return SCHEME
        + "$"
        + iterations
        + "$"
        + ENCODER.encodeToString(salt)
        + "$"
        + ENCODER.encodeToString(hash);
  }

  @Override
  public byte[] salt() {
    return salt.clone();
  }

  @Override
  public byte[] hash() {
    return hash.clone();
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof EncodedPasswordHash
        && ((EncodedPasswordHash) other).iterations == iterations
        && Arrays.equals(((EncodedPasswordHash) other).salt, salt)
        && Arrays.equals(((EncodedPasswordHash) other).hash, hash);
  }

  @Override
  public int hashCode() {
    return 31 * (31 * iterations + Arrays.hashCode(salt)) + Arrays.hashCode(hash);
  }

  @Override
  public String toString() {
    return SCHEME + "$" + iterations + "$…";
  }

  private static byte[] decode(String text, int expectedBytes, String what) {
    byte[] bytes;
    try {
      bytes = Base64.getDecoder().decode(text);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "the stored password hash has a " + what + " that is not Base64", e);
    }
    if (bytes.length != expectedBytes) {
      throw new IllegalArgumentException(
          "the stored password hash has a "
              + what
              + " of "
              + bytes.length
              + " bytes, expected "
              + expectedBytes);
    }
    return bytes;
  }
}
