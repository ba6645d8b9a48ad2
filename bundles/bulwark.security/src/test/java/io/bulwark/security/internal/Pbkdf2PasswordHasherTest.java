package io.bulwark.security.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bulwark.testing.TypedConfig;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Passwords hash to self-describing PBKDF2-HMAC-SHA-512 strings with a fresh salt, verify only with
 * the right password, and the work factor cannot go below 210,000 iterations.
 */
class Pbkdf2PasswordHasherTest {
  private static final char[] PASSWORD = "Correct-Horse-Battery-9".toCharArray();

  private final Pbkdf2PasswordHasher hasher =
      new Pbkdf2PasswordHasher(Fips.module(), TypedConfig.defaults(PasswordHashingConfig.class));

  @Test
  void aHashVerifiesWithItsPasswordOnly() {
    String hash = hasher.hash(PASSWORD.clone());

    assertThat(hasher.verify(PASSWORD.clone(), hash)).isTrue();
    assertThat(hasher.verify("Correct-Horse-Battery-8".toCharArray(), hash)).isFalse();
    assertThat(hasher.verify("short".toCharArray(), hash)).isFalse();
  }

  @Test
  void theHashDescribesItselfAndUsesAFreshSalt() {
    String first = hasher.hash(PASSWORD.clone());
    String second = hasher.hash(PASSWORD.clone());

    String[] parts = first.split("\\$");
    assertThat(parts).hasSize(4);
    assertThat(parts[0]).isEqualTo("pbkdf2-sha512");
    assertThat(parts[1]).isEqualTo("210000");
    assertThat(Base64.getDecoder().decode(parts[2])).hasSize(16);
    assertThat(Base64.getDecoder().decode(parts[3])).hasSize(64);
    assertThat(second).isNotEqualTo(first);
    assertThat(first).doesNotContain(new String(PASSWORD));
  }

  @Test
  void theHasherLeavesTheCallersPasswordAlone() {
    char[] password = PASSWORD.clone();

    hasher.hash(password);

    assertThat(password).isEqualTo(PASSWORD);
  }

  @Test
  void fewerThan210000IterationsAreRefused() {
    assertThatThrownBy(
            () ->
                new Pbkdf2PasswordHasher(
                    Fips.module(),
                    TypedConfig.of(PasswordHashingConfig.class, Map.of("iterations", 209_999))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("iterations must be at least 210000");
  }

  @Test
  void aStoredHashWithFewIterationsIsRefused() {
    String weak =
        "pbkdf2-sha512$1000$"
            + Base64.getEncoder().withoutPadding().encodeToString(new byte[16])
            + "$"
            + Base64.getEncoder().withoutPadding().encodeToString(new byte[64]);

    assertThatThrownBy(() -> hasher.verify(PASSWORD.clone(), weak))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("1000 iterations");
  }

  @Test
  void aMalformedStoredHashIsRefusedWithoutBeingQuoted() {
    String garbage = "sha1$secretlooking$value";

    assertThatThrownBy(() -> hasher.verify(PASSWORD.clone(), garbage))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not in the form pbkdf2-sha512$iterations$salt$hash")
        .hasMessageNotContaining("secretlooking");
  }

  @Test
  void aHashFromAHigherWorkFactorStillVerifiesAndOldOnesNeedRehash() {
    Pbkdf2PasswordHasher stronger =
        new Pbkdf2PasswordHasher(Fips.module(), new PasswordHashingOptions(250_000));
    String strongHash = stronger.hash(PASSWORD.clone());
    String defaultHash = hasher.hash(PASSWORD.clone());

    assertThat(hasher.verify(PASSWORD.clone(), strongHash)).isTrue();
    assertThat(stronger.needsRehash(defaultHash)).isTrue();
    assertThat(stronger.needsRehash(strongHash)).isFalse();
    assertThat(hasher.needsRehash(strongHash)).isFalse();
  }

  @Test
  void aPasswordTooShortForTheModuleCannotBeHashed() {
    assertThatThrownBy(() -> hasher.hash("tiny".toCharArray()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("too short");
  }
}
