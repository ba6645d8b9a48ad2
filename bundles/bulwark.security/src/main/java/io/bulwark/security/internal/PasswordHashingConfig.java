package io.bulwark.security.internal;

import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

/**
 * The configuration of password hashing (PID {@code io.bulwark.security.passwords}): how many
 * PBKDF2 iterations new hashes use. Read once by {@link Pbkdf2PasswordHasher} and turned into
 * {@link PasswordHashingOptions}.
 */
@ObjectClassDefinition(
    name = "Bulwark password hashing",
    description = "PBKDF2-HMAC-SHA-512 work factor for new password hashes.")
public @interface PasswordHashingConfig {

  @AttributeDefinition(
      name = "Iterations",
      description =
          "PBKDF2 iterations for new hashes; at least 210000. Raising it rehashes each password at"
              + " its next login.",
      min = "210000",
      max = "10000000")
  int iterations() default PasswordHashingOptions.LEAST_ITERATIONS;
}
