package io.bulwark.api.remediation;

import java.util.Map;

/**
 * One kind of step of a remediation ladder, registered as an OSGi service (whiteboard) under its
 * {@link #name()}. The engine calls {@link #perform} until it returns a final outcome, again after
 * every {@link StepOutcome#waitFor wait}, and again after an appliance restart while the step was
 * under way; so a step must be idempotent: it records what it has set in motion with {@link
 * StepContext#remember} before acting, and on a later call re-checks that instead of acting twice.
 * Calls for one run never overlap; a call may block for the length of one request to the system it
 * drives (bounded by that system's timeout), never longer.
 */
@org.osgi.annotation.versioning.ConsumerType
public interface RemediationStep {

  /** Returns the step's name in policies: lower case and '-', e.g. {@code drain}. */
  String name();

  /**
   * Returns true if the step disturbs the machine or its work (a drain, a reset, a power cycle): in
   * a policy whose mode asks for approval of destructive steps, the run waits for a person first.
   */
  boolean destructive();

  /**
   * Returns true if the step would kill or disturb work running on the node (a power cycle, a GPU
   * reset, a re-image): such a step runs only once the node's scheduler has confirmed it drained,
   * or, where no scheduler runs the node, after a person approved it knowing that any job still on
   * the node is killed (never on its own, whatever the policy's mode). A step that only changes
   * what the scheduler sends to the node (a drain) or what Bulwark records returns false. By
   * default, every destructive step.
   *
   * @since 1.2
   */
  default boolean disturbsWork() {
    return destructive();
  }

  /**
   * Returns what the step would do with {@code parameters} on the run's node, in words, for the
   * dry-run and the UI ("drain gpu-a07 in slurm with the reason …"). Must not touch anything.
   */
  String describe(StepContext context, Map<String, String> parameters);

  /**
   * Does (or re-checks) the step.
   *
   * @return done, a wait with the delay before the next call, skipped, or failed with the reason
   * @throws Exception if something unexpected broke; the run fails at this step with the message
   */
  StepOutcome perform(StepContext context) throws Exception;
}
