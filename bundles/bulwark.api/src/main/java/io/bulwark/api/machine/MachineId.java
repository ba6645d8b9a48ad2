package io.bulwark.api.machine;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * The id of a machine: its hostname unless the site chose another, lower case. Only letters,
 * digits, '.', '_' and '-', so it is safe in a URL path, a log line and a file name.
 */
public record MachineId(String value) implements Comparable<MachineId> {
  private static final Pattern VALID = Pattern.compile("[a-z0-9][a-z0-9._-]{0,62}");

  /**
   * @throws IllegalArgumentException if the id is empty, longer than 63 characters or holds other
   *     characters
   */
  public MachineId {
    Objects.requireNonNull(value, "machine id");
    if (!VALID.matcher(value).matches()) {
      throw new IllegalArgumentException(
          "not a valid machine id: '"
              + value
              + "' (lower-case letters, digits, '.', '_' and '-', starting with a letter or digit,"
              + " at most 63 characters)");
    }
  }

  /** Returns the id for {@code value}; same as the constructor. */
  public static MachineId of(String value) {
    return new MachineId(value);
  }

  /** Returns true if {@code value} would make a valid id. */
  public static boolean isValid(String value) {
    return value != null && VALID.matcher(value).matches();
  }

  @Override
  public int compareTo(MachineId other) {
    return value.compareTo(other.value);
  }

  @Override
  public String toString() {
    return value;
  }
}
