package io.bulwark.api.remediation;

import io.bulwark.api.fleet.NodeId;
import io.bulwark.api.machine.MachineId;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * A remediation run: one node, one finding, one policy version, its steps as they went. Stored
 * after every change, before anything is acted on.
 *
 * @param id its id
 * @param node the GPU node
 * @param hostname the node's host name (the scheduler's node name)
 * @param machine the managed machine linked to the node when the run started, or null
 * @param findingId the finding that started it
 * @param findingKind its kind
 * @param findingSummary its summary
 * @param policyId the policy
 * @param policyVersion the policy's version the run follows
 * @param mode the policy's mode when the run started
 * @param state where the run stands
 * @param current the index of the step under way (the number of steps once it ended well)
 * @param steps the steps
 * @param held why it is held or escalated, in words ("6 of 6 isolation slots in use"), or ""
 * @param startedBy who started it: {@code bulwark} for a finding, or a user
 * @param created when it was created
 * @param updated when it last changed
 * @param nextCheck when the engine calls its current step again, or null
 * @param approvedBy the approval of the destructive step it runs, as {@code <step>#<index>:<user>},
 *     or ""
 */
public record Run(
    String id,
    NodeId node,
    String hostname,
    MachineId machine,
    String findingId,
    String findingKind,
    String findingSummary,
    String policyId,
    int policyVersion,
    PolicyMode mode,
    RunState state,
    int current,
    List<StepRecord> steps,
    String held,
    String startedBy,
    Instant created,
    Instant updated,
    Instant nextCheck,
    String approvedBy) {

  /** Requires the keys and times; copies the steps. */
  public Run {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(node, "node");
    Objects.requireNonNull(hostname, "hostname");
    Objects.requireNonNull(policyId, "policyId");
    Objects.requireNonNull(mode, "mode");
    Objects.requireNonNull(state, "state");
    Objects.requireNonNull(created, "created");
    Objects.requireNonNull(updated, "updated");
    findingId = findingId == null ? "" : findingId;
    findingKind = findingKind == null ? "" : findingKind;
    findingSummary = findingSummary == null ? "" : findingSummary;
    steps = List.copyOf(steps);
    held = held == null ? "" : held;
    startedBy = startedBy == null ? "" : startedBy;
    approvedBy = approvedBy == null ? "" : approvedBy;
  }

  /** Returns true for a dry-run. */
  public boolean dryRun() {
    return mode == PolicyMode.DRY_RUN;
  }

  /** Returns the step under way, or null once none is. */
  public StepRecord currentStep() {
    return current >= 0 && current < steps.size() ? steps.get(current) : null;
  }

  /** Returns the run in {@code next} with the rest unchanged. */
  public Run with(
      RunState next,
      int step,
      List<StepRecord> newSteps,
      String heldReason,
      Instant at,
      Instant check,
      String approver) {
    return new Run(
        id,
        node,
        hostname,
        machine,
        findingId,
        findingKind,
        findingSummary,
        policyId,
        policyVersion,
        mode,
        next,
        step,
        newSteps,
        heldReason,
        startedBy,
        created,
        at,
        check,
        approver);
  }
}
