package io.bulwark.api.security;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The rules a new password must meet: a minimum length (15 characters or more), at least one
 * upper-case letter, one lower-case letter, one digit and one other character, no control or
 * invisible formatting character (a NUL, a tab, a line break…), and not containing the user name.
 * Used by user administration and the first-login password change to tell the user every rule the
 * password breaks, in words. Immutable and thread-safe.
 *
 * @param minimumLength the fewest characters (Unicode code points) a password may have; 15 or more
 */
public record PasswordPolicy(int minimumLength) {

  /** The fewest characters any policy may require. */
  public static final int LEAST_MINIMUM_LENGTH = 15;

  /**
   * Validates the policy.
   *
   * @throws IllegalArgumentException if {@code minimumLength} is below {@value
   *     #LEAST_MINIMUM_LENGTH}
   */
  public PasswordPolicy {
    if (minimumLength < LEAST_MINIMUM_LENGTH) {
      throw new IllegalArgumentException(
          "a password policy must require at least "
              + LEAST_MINIMUM_LENGTH
              + " characters, not "
              + minimumLength);
    }
  }

  /** Returns the standard policy: at least 15 characters. */
  public static PasswordPolicy standard() {
    return new PasswordPolicy(LEAST_MINIMUM_LENGTH);
  }

  /**
   * Returns one message per rule that {@code password} breaks for the user {@code userName}, in the
   * order of the rules; empty if it meets them all. The messages never repeat the password. Does
   * not modify or keep {@code password}.
   *
   * @param userName the user's name; null or blank skips the user-name rule
   * @param password the proposed password; null counts as empty
   */
  public List<String> problems(String userName, char[] password) {
    char[] candidate = password == null ? new char[0] : password;
    int length = Character.codePointCount(candidate, 0, candidate.length);
    boolean upper = false;
    boolean lower = false;
    boolean digit = false;
    boolean other = false;
    boolean control = false;
    for (int i = 0; i < candidate.length; ) {
      int codePoint = Character.codePointAt(candidate, i);
      i += Character.charCount(codePoint);
      int type = Character.getType(codePoint);
      if (type == Character.CONTROL
          || type == Character.FORMAT
          || type == Character.SURROGATE
          || type == Character.UNASSIGNED
          || type == Character.LINE_SEPARATOR
          || type == Character.PARAGRAPH_SEPARATOR) {
        control = true;
      } else if (Character.isUpperCase(codePoint)) {
        upper = true;
      } else if (Character.isLowerCase(codePoint)) {
        lower = true;
      } else if (Character.isDigit(codePoint)) {
        digit = true;
      } else if (!Character.isLetter(codePoint)) {
        other = true;
      }
    }
    List<String> problems = new ArrayList<>();
    if (length < minimumLength) {
      problems.add(
          "The password must be at least "
              + minimumLength
              + " characters long; it has "
              + length
              + ".");
    }
    if (!upper) {
      problems.add("The password must contain an upper-case letter (A-Z).");
    }
    if (!lower) {
      problems.add("The password must contain a lower-case letter (a-z).");
    }
    if (!digit) {
      problems.add("The password must contain a digit (0-9).");
    }
    if (!other) {
      problems.add(
          "The password must contain a character that is not a letter or a digit, such as ! # % or"
              + " a space.");
    }
    if (control) {
      problems.add(
          "The password must not contain control or invisible characters (NUL, tab, line breaks"
              + " and the like); they cannot be typed reliably.");
    }
    if (containsUserName(userName, candidate)) {
      problems.add("The password must not contain the user name.");
    }
    return List.copyOf(problems);
  }

  private static boolean containsUserName(String userName, char[] password) {
    if (userName == null || userName.isBlank()) {
      return false;
    }
    String name = userName.strip().toLowerCase(Locale.ROOT);
    int n = name.length();
    for (int start = 0; start + n <= password.length; start++) {
      boolean match = true;
      for (int j = 0; j < n && match; j++) {
        match = Character.toLowerCase(password[start + j]) == Character.toLowerCase(name.charAt(j));
      }
      if (match) {
        return true;
      }
    }
    return false;
  }
}
