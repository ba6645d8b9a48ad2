package io.bulwark.health.internal;

/**
 * The validated, immutable form of {@link HealthEngineConfig}. Used by the health engine.
 *
 * @param evaluationIntervalMillis time between two evaluations
 * @param resolveAfterMillis how long a condition must stay away before its finding resolves
 * @param startupGraceMillis how long after a start restored findings are kept at least
 */
record HealthEngineOptions(
    long evaluationIntervalMillis, long resolveAfterMillis, long startupGraceMillis) {

  /** The least time a node may stay silent before its GPUs count as not reporting. */
  static final long MIN_TELEMETRY_STALE_MILLIS = 10_000;

  /** How often an unchanged open finding is written back to refresh its last-seen time. */
  static final long REFRESH_PERSIST_MILLIS = 10_000;

  /**
   * @throws IllegalArgumentException naming the property whose value is out of range
   */
  HealthEngineOptions {
    if (evaluationIntervalMillis < 100) {
      throw new IllegalArgumentException(
          "evaluationIntervalMillis must be at least 100 ms, was " + evaluationIntervalMillis);
    }
    if (resolveAfterMillis < 0) {
      throw new IllegalArgumentException(
          "resolveAfterMillis must not be negative, was " + resolveAfterMillis);
    }
    if (startupGraceMillis < 0) {
      throw new IllegalArgumentException(
          "startupGraceMillis must not be negative, was " + startupGraceMillis);
    }
  }

  /** Converts the configuration once. */
  static HealthEngineOptions from(HealthEngineConfig config) {
    return new HealthEngineOptions(
        config.evaluationIntervalMillis(),
        config.resolveAfterMillis(),
        config.startupGraceMillis());
  }

  /** Returns how long a node may stay silent before its GPUs count as not reporting telemetry. */
  long telemetryStaleMillis() {
    return Math.max(3 * evaluationIntervalMillis, MIN_TELEMETRY_STALE_MILLIS);
  }
}
