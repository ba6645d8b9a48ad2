package io.bulwark.security.internal;

import io.bulwark.api.security.PasswordPolicy;
import java.security.SecureRandom;
import java.util.Arrays;

/**
 * Makes a random password that meets the password policy for a user, from the FIPS module's DRBG:
 * letters, digits and a few symbols that are easy to read and type on a console (no 0/O, 1/l/I, no
 * quotes or spaces). A candidate that breaks a rule is discarded and another drawn.
 */
final class GeneratedPassword {
  /** How long generated passwords are. */
  static final int LENGTH = 20;

  private static final char[] ALPHABET =
      "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789!#%+=?@*-".toCharArray();
  private static final int MOST_DRAWS = 1000;

  private GeneratedPassword() {}

  /**
   * Returns a new password for {@code userName}.
   *
   * @throws IllegalStateException if no candidate met the policy (cannot happen with a working
   *     DRBG)
   */
  static char[] forUser(String userName, SecureRandom random, PasswordPolicy policy) {
    for (int draw = 0; draw < MOST_DRAWS; draw++) {
      char[] candidate = new char[Math.max(LENGTH, policy.minimumLength())];
      for (int i = 0; i < candidate.length; i++) {
        candidate[i] = ALPHABET[random.nextInt(ALPHABET.length)];
      }
      if (policy.problems(userName, candidate).isEmpty()) {
        return candidate;
      }
      Arrays.fill(candidate, '\0');
    }
    throw new IllegalStateException("could not generate a password that meets the policy");
  }
}
