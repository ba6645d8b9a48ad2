package io.bulwark.security.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bulwark.api.security.PasswordPolicy;
import org.junit.jupiter.api.Test;

/** The password policy names every rule a password breaks, one message per rule. */
class PasswordPolicyTest {
  private final PasswordPolicy policy = PasswordPolicy.standard();

  @Test
  void aStrongPasswordHasNoProblems() {
    assertThat(policy.problems("alice", "Tr0ub4dor&3-Zebra".toCharArray())).isEmpty();
  }

  @Test
  void eachBrokenRuleHasItsOwnMessage() {
    assertThat(policy.problems("alice", "Short1!a".toCharArray()))
        .containsExactly("The password must be at least 15 characters long; it has 8.");
    assertThat(policy.problems("alice", "no-upper-case-123".toCharArray()))
        .containsExactly("The password must contain an upper-case letter (A-Z).");
    assertThat(policy.problems("alice", "NO-LOWER-CASE-123".toCharArray()))
        .containsExactly("The password must contain a lower-case letter (a-z).");
    assertThat(policy.problems("alice", "No-Digits-At-All!".toCharArray()))
        .containsExactly("The password must contain a digit (0-9).");
    assertThat(policy.problems("alice", "OnlyLettersAndDigits42".toCharArray()))
        .singleElement()
        .asString()
        .startsWith("The password must contain a character that is not a letter or a digit");
    assertThat(policy.problems("Alice", "My-ALICE-password-7".toCharArray()))
        .containsExactly("The password must not contain the user name.");
  }

  @Test
  void controlAndInvisibleCharactersAreRefusedSpacesAreNot() {
    assertThat(policy.problems("alice", "Aa1!\0\0\0\0\0\0\0\0\0\0\0".toCharArray()))
        .containsExactly(
            "The password must not contain control or invisible characters (NUL, tab, line breaks"
                + " and the like); they cannot be typed reliably.");
    assertThat(policy.problems("alice", "Correct\tHorse-Battery9".toCharArray())).hasSize(1);
    assertThat(policy.problems("alice", "Correct\u200BHorse-Battery9".toCharArray())).hasSize(1);
    assertThat(policy.problems("alice", "Correct Horse Battery 9".toCharArray())).isEmpty();
  }

  @Test
  void anEmptyPasswordBreaksEveryCharacterRule() {
    assertThat(policy.problems("bob", new char[0])).hasSize(5);
    assertThat(policy.problems("bob", null)).hasSize(5);
  }

  @Test
  void lengthCountsCharactersNotUtf16Units() {
    String fourteenPlusEmoji = "Aa1!aaaaaaaaaa\uD83D\uDE00";

    assertThat(policy.problems("bob", fourteenPlusEmoji.toCharArray())).isEmpty();
    assertThat(policy.problems("bob", "Aa1!aaaaaaaaa\uD83D\uDE00".toCharArray()))
        .containsExactly("The password must be at least 15 characters long; it has 14.");
  }

  @Test
  void aWeakerPolicyCannotBeMade() {
    assertThatThrownBy(() -> new PasswordPolicy(8))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("at least 15");
  }
}
