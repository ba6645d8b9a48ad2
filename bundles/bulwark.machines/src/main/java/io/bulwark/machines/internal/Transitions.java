package io.bulwark.machines.internal;

import static io.bulwark.api.machine.MachineOperation.ABORT;
import static io.bulwark.api.machine.MachineOperation.ALLOCATE;
import static io.bulwark.api.machine.MachineOperation.COMMISSION;
import static io.bulwark.api.machine.MachineOperation.DEPLOY;
import static io.bulwark.api.machine.MachineOperation.ERASE_DISKS;
import static io.bulwark.api.machine.MachineOperation.EXIT_RESCUE;
import static io.bulwark.api.machine.MachineOperation.MARK_BROKEN;
import static io.bulwark.api.machine.MachineOperation.MARK_FIXED;
import static io.bulwark.api.machine.MachineOperation.QUARANTINE;
import static io.bulwark.api.machine.MachineOperation.RELEASE;
import static io.bulwark.api.machine.MachineOperation.REMEDIATE;
import static io.bulwark.api.machine.MachineOperation.RESCUE;
import static io.bulwark.api.machine.MachineOperation.RETURN_TO_SERVICE;
import static io.bulwark.api.machine.MachineOperation.TEST;
import static io.bulwark.api.machine.MachineState.ALLOCATED;
import static io.bulwark.api.machine.MachineState.BROKEN;
import static io.bulwark.api.machine.MachineState.COMMISSIONING;
import static io.bulwark.api.machine.MachineState.DEPLOYED;
import static io.bulwark.api.machine.MachineState.DEPLOYING;
import static io.bulwark.api.machine.MachineState.DISK_ERASING;
import static io.bulwark.api.machine.MachineState.ENTERING_RESCUE_MODE;
import static io.bulwark.api.machine.MachineState.EXITING_RESCUE_MODE;
import static io.bulwark.api.machine.MachineState.FAILED_COMMISSIONING;
import static io.bulwark.api.machine.MachineState.FAILED_DEPLOYMENT;
import static io.bulwark.api.machine.MachineState.FAILED_DISK_ERASING;
import static io.bulwark.api.machine.MachineState.FAILED_ENTERING_RESCUE_MODE;
import static io.bulwark.api.machine.MachineState.FAILED_EXITING_RESCUE_MODE;
import static io.bulwark.api.machine.MachineState.FAILED_RELEASING;
import static io.bulwark.api.machine.MachineState.FAILED_TESTING;
import static io.bulwark.api.machine.MachineState.NEW;
import static io.bulwark.api.machine.MachineState.QUARANTINED;
import static io.bulwark.api.machine.MachineState.READY;
import static io.bulwark.api.machine.MachineState.RELEASING;
import static io.bulwark.api.machine.MachineState.REMEDIATING;
import static io.bulwark.api.machine.MachineState.RESCUE_MODE;
import static io.bulwark.api.machine.MachineState.TESTING;

import io.bulwark.api.machine.Machine;
import io.bulwark.api.machine.MachineOperation;
import io.bulwark.api.machine.MachineState;
import java.util.Collections;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The one table of which operation moves a machine from which state to which, after MAAS's node
 * actions, with Bulwark's Quarantined and Remediating beside them. Operations that do not change
 * the state (power, boot, probe, lock, delete) are allowed by rule rather than by row: in every
 * state for power and probe, outside the transient states for delete, in Deployed for lock; a
 * locked machine refuses whatever would disturb its work. Every state x every operation is tested.
 */
final class Transitions {

  /**
   * Where a state-changing operation leads.
   *
   * @param to the next state, or null for "the state the machine returns to" ({@link
   *     Machine#returnState()}, Ready if none)
   * @param remember true if the state left is remembered as the one to return to (testing, rescue,
   *     quarantine, commissioning from a failed state)
   */
  record Step(MachineState to, boolean remember) {
    static Step to(MachineState s) {
      return new Step(s, false);
    }

    static Step back() {
      return new Step(null, false);
    }

    static Step remembering(MachineState s) {
      return new Step(s, true);
    }
  }

  private static final Map<MachineState, Map<MachineOperation, Step>> TABLE =
      new EnumMap<>(MachineState.class);

  /** Where a transient state ends when its work is done. */
  private static final Map<MachineState, Step> COMPLETE = new EnumMap<>(MachineState.class);

  static {
    row(NEW).put(COMMISSION, Step.remembering(COMMISSIONING));
    row(COMMISSIONING).put(ABORT, Step.back());
    row(FAILED_COMMISSIONING).put(COMMISSION, Step.remembering(COMMISSIONING));
    row(FAILED_COMMISSIONING).put(TEST, Step.remembering(TESTING));
    row(FAILED_COMMISSIONING).put(RESCUE, Step.remembering(ENTERING_RESCUE_MODE));

    row(READY).put(COMMISSION, Step.remembering(COMMISSIONING));
    row(READY).put(TEST, Step.remembering(TESTING));
    row(READY).put(ALLOCATE, Step.to(ALLOCATED));
    row(READY).put(DEPLOY, Step.to(DEPLOYING));
    row(READY).put(RESCUE, Step.remembering(ENTERING_RESCUE_MODE));
    row(READY).put(QUARANTINE, Step.remembering(QUARANTINED));

    row(ALLOCATED).put(DEPLOY, Step.to(DEPLOYING));
    row(ALLOCATED).put(RELEASE, Step.to(RELEASING));
    row(ALLOCATED).put(ERASE_DISKS, Step.to(DISK_ERASING));
    row(ALLOCATED).put(RESCUE, Step.remembering(ENTERING_RESCUE_MODE));
    row(ALLOCATED).put(QUARANTINE, Step.remembering(QUARANTINED));

    row(DEPLOYING).put(ABORT, Step.to(ALLOCATED));

    row(DEPLOYED).put(RELEASE, Step.to(RELEASING));
    row(DEPLOYED).put(ERASE_DISKS, Step.to(DISK_ERASING));
    row(DEPLOYED).put(RESCUE, Step.remembering(ENTERING_RESCUE_MODE));
    row(DEPLOYED).put(QUARANTINE, Step.remembering(QUARANTINED));

    row(FAILED_DEPLOYMENT).put(DEPLOY, Step.to(DEPLOYING));
    row(FAILED_DEPLOYMENT).put(RELEASE, Step.to(RELEASING));
    row(FAILED_DEPLOYMENT).put(ERASE_DISKS, Step.to(DISK_ERASING));
    row(FAILED_DEPLOYMENT).put(RESCUE, Step.remembering(ENTERING_RESCUE_MODE));

    row(RELEASING);
    row(FAILED_RELEASING).put(RELEASE, Step.to(RELEASING));
    row(FAILED_RELEASING).put(ERASE_DISKS, Step.to(DISK_ERASING));

    row(DISK_ERASING).put(ABORT, Step.to(FAILED_DISK_ERASING));
    row(FAILED_DISK_ERASING).put(ERASE_DISKS, Step.to(DISK_ERASING));
    row(FAILED_DISK_ERASING).put(RELEASE, Step.to(RELEASING));

    row(ENTERING_RESCUE_MODE).put(ABORT, Step.back());
    row(RESCUE_MODE).put(EXIT_RESCUE, Step.to(EXITING_RESCUE_MODE));
    row(EXITING_RESCUE_MODE);
    row(FAILED_ENTERING_RESCUE_MODE).put(RESCUE, Step.to(ENTERING_RESCUE_MODE));
    row(FAILED_ENTERING_RESCUE_MODE).put(EXIT_RESCUE, Step.to(EXITING_RESCUE_MODE));
    row(FAILED_EXITING_RESCUE_MODE).put(EXIT_RESCUE, Step.to(EXITING_RESCUE_MODE));

    row(TESTING).put(ABORT, Step.back());
    row(FAILED_TESTING).put(TEST, Step.remembering(TESTING));
    row(FAILED_TESTING).put(COMMISSION, Step.remembering(COMMISSIONING));
    row(FAILED_TESTING).put(MARK_FIXED, Step.to(READY));
    row(FAILED_TESTING).put(RESCUE, Step.remembering(ENTERING_RESCUE_MODE));

    row(BROKEN).put(MARK_FIXED, Step.to(READY));
    row(BROKEN).put(COMMISSION, Step.remembering(COMMISSIONING));
    row(BROKEN).put(TEST, Step.remembering(TESTING));
    row(BROKEN).put(RESCUE, Step.remembering(ENTERING_RESCUE_MODE));

    row(QUARANTINED).put(REMEDIATE, Step.to(REMEDIATING));
    row(QUARANTINED).put(RETURN_TO_SERVICE, Step.back());
    row(REMEDIATING).put(ABORT, Step.to(QUARANTINED));

    // Mark broken: from every state at rest but Broken itself (an operation under way is aborted
    // first).
    for (MachineState s : MachineState.values()) {
      if (!s.isTransient() && s != BROKEN) {
        row(s).put(MARK_BROKEN, Step.to(BROKEN));
      }
    }

    COMPLETE.put(COMMISSIONING, Step.to(READY));
    COMPLETE.put(DEPLOYING, Step.to(DEPLOYED));
    COMPLETE.put(RELEASING, Step.to(READY));
    COMPLETE.put(DISK_ERASING, Step.to(READY));
    COMPLETE.put(ENTERING_RESCUE_MODE, Step.to(RESCUE_MODE));
    COMPLETE.put(EXITING_RESCUE_MODE, Step.back());
    COMPLETE.put(TESTING, Step.back());
    // Remediation ends well only once the machine has been re-validated: back to service.
    COMPLETE.put(REMEDIATING, Step.back());
  }

  private Transitions() {}

  private static Map<MachineOperation, Step> row(MachineState s) {
    return TABLE.computeIfAbsent(s, k -> new EnumMap<>(MachineOperation.class));
  }

  /** Returns where a state-changing {@code op} leads from {@code state}, if it is allowed there. */
  static Optional<Step> step(MachineState state, MachineOperation op) {
    return Optional.ofNullable(TABLE.getOrDefault(state, Map.of()).get(op));
  }

  /** Returns where the operation under way in {@code state} leads when it ends well. */
  static Optional<Step> completion(MachineState state) {
    return Optional.ofNullable(COMPLETE.get(state));
  }

  /** Returns true if {@code op} changes the state (it has rows in the table). */
  static boolean changesState(MachineOperation op) {
    return !op.isPower()
        && op != MachineOperation.LOCK
        && op != MachineOperation.UNLOCK
        && op != MachineOperation.DELETE;
  }

  /**
   * Returns why {@code op} is refused on {@code m}, in words naming the state, or empty if it is
   * allowed.
   */
  static Optional<String> refusal(Machine m, MachineOperation op) {
    String name = "machine " + m.id();
    if (m.locked() && op.disturbsWork()) {
      return Optional.of(
          name
              + " is locked: unlock it before you "
              + words(op)
              + " (it is "
              + m.state().label()
              + ")");
    }
    switch (op) {
      case LOCK:
        if (m.locked()) {
          return Optional.of(name + " is already locked");
        }
        return m.state() == DEPLOYED
            ? Optional.empty()
            : Optional.of(
                "only a Deployed machine can be locked; " + name + " is " + m.state().label());
      case UNLOCK:
        return m.locked() ? Optional.empty() : Optional.of(name + " is not locked");
      case DELETE:
        return m.state().isTransient()
            ? Optional.of(
                name
                    + " is "
                    + m.state().label()
                    + ": abort that first, or wait until it ends, then delete it")
            : Optional.empty();
      default:
        break;
    }
    if (op.isPower()) {
      return m.bmc() == null
          ? Optional.of(name + " has no BMC: add its BMC address and credentials first")
          : Optional.empty();
    }
    if (step(m.state(), op).isPresent()) {
      return Optional.empty();
    }
    Set<MachineOperation> allowed = allowedByState(m.state());
    return Optional.of(
        "cannot "
            + words(op)
            + " "
            + name
            + ": it is "
            + m.state().label()
            + (allowed.isEmpty()
                ? "; nothing changes its state until the operation under way ends"
                : "; in that state it can "
                    + allowed.stream().map(Transitions::words).collect(Collectors.joining(", "))));
  }

  /** Returns the state-changing operations allowed in {@code state}. */
  static Set<MachineOperation> allowedByState(MachineState state) {
    Map<MachineOperation, Step> row = TABLE.getOrDefault(state, Map.of());
    return row.isEmpty()
        ? Collections.emptySet()
        : Collections.unmodifiableSet(EnumSet.copyOf(row.keySet()));
  }

  /** Returns what {@code m} allows now, state-changing or not. */
  static Set<MachineOperation> allowed(Machine m) {
    EnumSet<MachineOperation> ops = EnumSet.noneOf(MachineOperation.class);
    for (MachineOperation op : MachineOperation.values()) {
      if (refusal(m, op).isEmpty()) {
        ops.add(op);
      }
    }
    return ops;
  }

  /** Returns "power cycle", "mark broken": the operation as a sentence says it. */
  static String words(MachineOperation op) {
    return op.apiName().replace('-', ' ');
  }
}
