package io.bulwark.api.remediation;

import java.time.Instant;
import java.util.Map;
import java.util.Objects;

/**
 * One step of a run as it went.
 *
 * @param step the policy's rung
 * @param status where it stands
 * @param started when it was first called, or null
 * @param ended when it ended, or null
 * @param attempts how many times it was called
 * @param detail the latest words about it
 * @param memo what the step recorded to stay idempotent
 * @param evidence facts it kept (answers, serial numbers)
 */
public record StepRecord(
    PolicyStep step,
    StepStatus status,
    Instant started,
    Instant ended,
    int attempts,
    String detail,
    Map<String, String> memo,
    Map<String, String> evidence) {

  /** Requires the step and status; copies the maps. */
  public StepRecord {
    Objects.requireNonNull(step, "step");
    Objects.requireNonNull(status, "status");
    detail = detail == null ? "" : detail;
    memo = memo == null ? Map.of() : Map.copyOf(memo);
    evidence = evidence == null ? Map.of() : Map.copyOf(evidence);
  }

  /** Returns the step with {@code newDetail}. */
  public StepRecord withDetail(String newDetail) {
    return new StepRecord(step, status, started, ended, attempts, newDetail, memo, evidence);
  }

  /** Returns the step in {@code newStatus}. */
  public StepRecord withStatus(StepStatus newStatus) {
    return new StepRecord(step, newStatus, started, ended, attempts, detail, memo, evidence);
  }

  /** Returns a step not reached yet. */
  public static StepRecord pending(PolicyStep step) {
    return new StepRecord(step, StepStatus.PENDING, null, null, 0, "", Map.of(), Map.of());
  }
}
