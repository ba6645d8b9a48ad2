package io.bulwark.api.system;

/**
 * The caps of one listener's connections.
 *
 * @param total the most connections open at once, from all clients together; at least 1
 * @param perSource the most connections open at once from one client address; 1 to {@code total}
 * @since 1.1
 */
public record ConnectionLimits(int total, int perSource) {

  public ConnectionLimits {
    if (total < 1) {
      throw new IllegalArgumentException("the connection cap must be at least 1, not " + total);
    }
    if (perSource < 1 || perSource > total) {
      throw new IllegalArgumentException(
          "the per-address connection cap must be between 1 and " + total + ", not " + perSource);
    }
  }
}
