package io.bulwark.api.remediation;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/**
 * What one call of a step came to.
 *
 * @param status done, waiting, skipped or failed
 * @param detail what happened, in words an operator reads in the run
 * @param recheckAfter for a wait: how long before the next call; else zero
 * @param evidence facts to keep with the run (a serial number, a scheduler's answer), or empty
 */
public record StepOutcome(
    Status status, String detail, Duration recheckAfter, Map<String, String> evidence) {

  /** The outcome's kind. */
  public enum Status {
    /** The step did what it is for: go on to the next one. */
    DONE,
    /** Not yet: call again after {@link #recheckAfter()}. */
    WAIT,
    /** The step does not apply here (nothing to do, or not available on this node). */
    SKIPPED,
    /** It could not be done: the run stops here and goes to a person. */
    FAILED
  }

  /** Requires the status and detail; copies the evidence. */
  public StepOutcome {
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(detail, "detail");
    recheckAfter = recheckAfter == null ? Duration.ZERO : recheckAfter;
    evidence = evidence == null ? Map.of() : Map.copyOf(evidence);
  }

  /** Returns a done outcome. */
  public static StepOutcome done(String detail) {
    return new StepOutcome(Status.DONE, detail, Duration.ZERO, Map.of());
  }

  /** Returns a done outcome that keeps {@code evidence}. */
  public static StepOutcome done(String detail, Map<String, String> evidence) {
    return new StepOutcome(Status.DONE, detail, Duration.ZERO, evidence);
  }

  /** Returns a wait: the engine calls again after {@code delay}. */
  public static StepOutcome waitFor(Duration delay, String detail) {
    return new StepOutcome(Status.WAIT, detail, delay, Map.of());
  }

  /** Returns a skipped outcome. */
  public static StepOutcome skipped(String detail) {
    return new StepOutcome(Status.SKIPPED, detail, Duration.ZERO, Map.of());
  }

  /** Returns a failure. */
  public static StepOutcome failed(String detail) {
    return new StepOutcome(Status.FAILED, detail, Duration.ZERO, Map.of());
  }

  /** Returns a failure that keeps {@code evidence}. */
  public static StepOutcome failed(String detail, Map<String, String> evidence) {
    return new StepOutcome(Status.FAILED, detail, Duration.ZERO, evidence);
  }
}
