package io.bulwark.api.security;

import org.osgi.annotation.versioning.ProviderType;

/**
 * Hashes user passwords for storage and checks a password against a stored hash: PBKDF2 with
 * HMAC-SHA-512 in the FIPS module, a random 16-byte salt per hash, at least 210,000 iterations.
 * Hashes are self-describing strings ({@code pbkdf2-sha512$<iterations>$<salt>$<hash>}, Base64), so
 * the iteration count can be raised without invalidating stored hashes. Provided by the security
 * bundle; used by the login and user administration code. Thread-safe; each call takes a few
 * hundred milliseconds of CPU on purpose, so do not call it on an event loop.
 *
 * <p>Passwords are {@code char[]} so that callers can clear them; the hasher clears its own copies
 * but never the caller's array.
 */
@ProviderType
public interface PasswordHasher {

  /**
   * Returns the encoded hash of {@code password} with a fresh salt.
   *
   * @throws IllegalArgumentException if the password is null or shorter than the FIPS module
   *     accepts for key derivation (14 bytes in UTF-8)
   */
  String hash(char[] password);

  /**
   * Returns true if {@code password} matches {@code encodedHash}; compares in constant time.
   *
   * @throws IllegalArgumentException if {@code encodedHash} is not a hash this hasher wrote (the
   *     message does not repeat it)
   */
  boolean verify(char[] password, String encodedHash);

  /**
   * Returns true if {@code encodedHash} was made with fewer iterations than now configured, so the
   * caller should store a new hash after the next successful login.
   *
   * @throws IllegalArgumentException if {@code encodedHash} is not a hash this hasher wrote
   */
  boolean needsRehash(String encodedHash);
}
