package io.bulwark.security.internal;

/**
 * The validated, immutable form of {@link PasswordHashingConfig}.
 *
 * @param iterations PBKDF2 iterations for new hashes, {@value #LEAST_ITERATIONS} to {@value
 *     #MOST_ITERATIONS}
 */
record PasswordHashingOptions(int iterations) {
  /** The fewest iterations any hash may use (OWASP's figure for PBKDF2-HMAC-SHA-512). */
  static final int LEAST_ITERATIONS = 210_000;

  /** The most iterations a hash may use, so that one login cannot occupy a core for long. */
  static final int MOST_ITERATIONS = 10_000_000;

  PasswordHashingOptions {
    if (iterations < LEAST_ITERATIONS) {
      throw new IllegalArgumentException(
          "iterations must be at least "
              + LEAST_ITERATIONS
              + " for PBKDF2-HMAC-SHA-512, not "
              + iterations);
    }
    if (iterations > MOST_ITERATIONS) {
      throw new IllegalArgumentException(
          "iterations must be at most " + MOST_ITERATIONS + ", not " + iterations);
    }
  }

  /**
   * Validates the configuration.
   *
   * @throws IllegalArgumentException naming the property that is wrong
   */
  static PasswordHashingOptions from(PasswordHashingConfig config) {
    return new PasswordHashingOptions(config.iterations());
  }
}
