package io.bulwark.api.remediation;

import java.util.List;
import java.util.Optional;

/**
 * The remediation engine: its policies, guardrails and runs. Every change is stored before it is
 * acted on; callers audit the requests they serve. Provided by {@code bulwark.remediation};
 * thread-safe.
 */
@org.osgi.annotation.versioning.ProviderType
public interface RemediationService {

  /** Returns the runs, newest first (at most {@code limit}). */
  List<Run> runs(int limit);

  /** Returns a run, if it is known. */
  Optional<Run> run(String id);

  /** Returns the current version of every policy. */
  List<Policy> policies();

  /** Returns every stored version of a policy, oldest first. */
  List<Policy> policyHistory(String id);

  /**
   * Stores {@code policy} as the next version of its id (or version 1 of a new one).
   *
   * @throws IllegalArgumentException if a step it names is not known and not optional
   */
  Policy savePolicy(Policy policy, String by);

  /** Returns the guardrails and switches now. */
  Guardrails guardrails();

  /** Stores new limits (the switches are kept as they are). */
  Guardrails saveGuardrails(Guardrails limits, String by);

  /** Turns the global kill switch on or off. */
  Guardrails killSwitch(boolean on, String by);

  /** Closes the circuit breaker: automation resumes. */
  Guardrails resetBreaker(String by);

  /**
   * Starts a run for an open finding by hand, with the policy that matches it or {@code policyId}.
   *
   * @throws java.util.NoSuchElementException if the finding or policy is unknown
   * @throws IllegalStateException if the node has a run under way, naming it
   */
  Run start(String findingId, String policyId, String by);

  /**
   * Cancels a run that has not ended: no further step is carried out; a node it drained stays
   * drained for a person to look at.
   *
   * @throws java.util.NoSuchElementException if the run is unknown
   * @throws IllegalStateException if it has ended
   */
  Run cancel(String id, String reason, String by);

  /**
   * Approves the destructive step a run waits on: the step at index {@code step} (what the approver
   * saw), so that a repeated request cannot approve the next one.
   *
   * @throws IllegalStateException if it waits on no approval, or on another step, or on a step that
   *     kills any job still on the node (its node was not drained by a scheduler)
   */
  default Run approve(String id, int step, String by) {
    return approve(id, step, by, false);
  }

  /**
   * Approves the destructive step a run waits on, as {@link #approve(String, int, String)}; {@code
   * jobsMayBeKilled} is the approver's confirmation that the step may kill the work on a node that
   * no scheduler drained (see {@link RemediationStep#disturbsWork()}), which such a step needs.
   *
   * @throws IllegalStateException if it waits on no approval, or on another step, or the step needs
   *     that confirmation and {@code jobsMayBeKilled} is false
   * @since 1.2
   */
  Run approve(String id, int step, String by, boolean jobsMayBeKilled);

  /** Returns the names of the steps bundles provide now. */
  List<String> steps();
}
