package io.bulwark.health.dcgm.internal;

/**
 * The validated, immutable form of a detector configuration that holds only a window (those of the
 * ECC and row-remap detectors), and the one definition of "the last N seconds" every detector of
 * this bundle uses.
 *
 * @param windowSeconds how recent a sample must be to count
 */
record WindowOptions(int windowSeconds) {

  /**
   * @throws IllegalArgumentException naming windowSeconds when it is out of range
   */
  WindowOptions {
    if (windowSeconds < 1 || windowSeconds > 3600) {
      throw new IllegalArgumentException(
          "windowSeconds must be between 1 and 3600, was " + windowSeconds);
    }
  }

  /**
   * Returns the start of the window that ends at {@code nowMillis}: samples of the last
   * windowSeconds.
   */
  long from(long nowMillis) {
    return windowStart(nowMillis, windowSeconds);
  }

  /**
   * Returns the earliest timestamp of the last {@code seconds} seconds before {@code nowMillis}: a
   * sample taken exactly {@code seconds} ago no longer counts, so a 10 s window holds 10 samples
   * taken once a second.
   */
  static long windowStart(long nowMillis, long seconds) {
    return nowMillis - seconds * 1000L + 1;
  }
}
