package io.bulwark.health.dcgm.internal;

/**
 * The evaluation interval of a detector whose verdict rests on a long window: how often it needs to
 * judge, checked once from its configuration. Used by the detectors that say so through {@code
 * Detector.evaluationIntervalMillis()}.
 */
final class Cadence {
  /** The longest interval accepted, in seconds. */
  static final int MAX_SECONDS = 3600;

  private Cadence() {}

  /**
   * Returns {@code seconds} in milliseconds.
   *
   * @throws IllegalArgumentException if it is negative or longer than an hour
   */
  static long millis(int seconds) {
    if (seconds < 0 || seconds > MAX_SECONDS) {
      throw new IllegalArgumentException(
          "evaluationIntervalSeconds must be 0 (every evaluation) to "
              + MAX_SECONDS
              + ", was "
              + seconds);
    }
    return seconds * 1000L;
  }
}
