package io.bulwark.api.fleet;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * The name of a node as the fleet knows it (its hostname, as dcgm-exporter's {@code Hostname} label
 * gives it). Used as the key of every per-node record. Only letters, digits, '.', '_', ':' and '-'
 * are allowed, so a node name is always safe in a URL path, a log line and a file name.
 */
public record NodeId(String value) implements Comparable<NodeId> {
  private static final Pattern VALID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._:-]{0,252}");

  /**
   * @throws IllegalArgumentException if the name is empty, too long or holds other characters
   */
  public NodeId {
    Objects.requireNonNull(value, "node name");
    if (!VALID.matcher(value).matches()) {
      throw new IllegalArgumentException(
          "not a valid node name: '"
              + value
              + "' (letters, digits, '.', '_', ':' and '-' only, at most 253 characters)");
    }
  }

  /** Returns the node id for {@code value}; same as the constructor. */
  public static NodeId of(String value) {
    return new NodeId(value);
  }

  /** Returns true if {@code value} would make a valid node id. */
  public static boolean isValid(String value) {
    return value != null && VALID.matcher(value).matches();
  }

  @Override
  public int compareTo(NodeId other) {
    return value.compareTo(other.value);
  }

  @Override
  public String toString() {
    return value;
  }
}
