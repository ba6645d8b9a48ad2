package io.bulwark.api.compliance;

import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * What one run of a check found.
 *
 * @param check the check's id
 * @param status the verdict
 * @param summary one line for the assessor: what was found, in words
 * @param evidence the values, record ids and times the verdict rests on, by name (sorted)
 * @param ranAt when the check ran
 */
public record CheckResult(
    String check, CheckStatus status, String summary, Map<String, String> evidence, Instant ranAt) {

  public CheckResult {
    Objects.requireNonNull(check, "check");
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(summary, "summary");
    evidence = java.util.Collections.unmodifiableMap(new TreeMap<>(evidence));
    Objects.requireNonNull(ranAt, "ranAt");
  }

  /** Returns a result that proves the control met. */
  public static CheckResult met(
      String check, String summary, Map<String, String> evidence, Instant at) {
    return new CheckResult(check, CheckStatus.NOT_A_FINDING, summary, evidence, at);
  }

  /** Returns a result that finds the control not met. */
  public static CheckResult open(
      String check, String summary, Map<String, String> evidence, Instant at) {
    return new CheckResult(check, CheckStatus.OPEN, summary, evidence, at);
  }

  /** Returns a result for a check that could not decide, saying why. */
  public static CheckResult notReviewed(String check, String why, Instant at) {
    return new CheckResult(check, CheckStatus.NOT_REVIEWED, why, Map.of(), at);
  }
}
