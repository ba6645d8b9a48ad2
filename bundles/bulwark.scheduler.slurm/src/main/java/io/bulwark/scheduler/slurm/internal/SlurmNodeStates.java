package io.bulwark.scheduler.slurm.internal;

import io.bulwark.api.scheduler.SchedulerNode;
import io.bulwark.api.scheduler.SchedulerState;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * How a Slurm node's base state and flags (as {@code sinfo --json} lists them) map to the SPI's
 * states, and how Slurm's own tools word them.
 *
 * <ul>
 *   <li>{@link SchedulerState#DOWN}: base state {@code down}, or flag {@code NOT_RESPONDING} (sinfo
 *       marks it with {@code *}), {@code POWERED_DOWN}, {@code POWERING_UP}, {@code POWERING_DOWN}
 *       or {@code REBOOT_ISSUED}, whatever else it says, a drain included;
 *   <li>{@link SchedulerState#DRAINED}: flag {@code DRAIN} on an {@code idle} node that is not
 *       {@code COMPLETING} and runs no job: what sinfo calls "drained";
 *   <li>{@link SchedulerState#DRAINING}: flag {@code DRAIN} otherwise ({@code MIXED+DRAIN}, {@code
 *       ALLOCATED+DRAIN}, {@code IDLE+COMPLETING+DRAIN}): what sinfo calls "draining";
 *   <li>{@link SchedulerState#UNKNOWN}: flag {@code FAIL} (an administrator expects the node to
 *       fail; Slurm does not call it drained), base state {@code error}, {@code future}, {@code
 *       unknown} or anything else;
 *   <li>{@link SchedulerState#AVAILABLE}: {@code idle}, {@code mixed} or {@code allocated} without
 *       any of those flags.
 * </ul>
 */
final class SlurmNodeStates {
  private static final Set<String> UNREACHABLE =
      Set.of("NOT_RESPONDING", "POWERED_DOWN", "POWERING_UP", "POWERING_DOWN", "REBOOT_ISSUED");
  private static final Set<String> WORKING = Set.of("idle", "mixed", "allocated");

  private SlurmNodeStates() {}

  /** Returns the node as the SPI reports it, with {@code jobs} as squeue lists them there. */
  static SchedulerNode node(SinfoNode node, List<String> jobs) {
    return new SchedulerNode(
        node.name(),
        of(node.state(), node.flags(), !jobs.isEmpty()),
        words(node.state(), node.flags()),
        node.reason(),
        Set.copyOf(node.partitions()),
        jobs);
  }

  /**
   * Returns where the node stands. {@code runsJobs} says whether squeue lists a job on it: a node
   * Slurm calls idle and drained is still draining while a job is listed there, so that a job that
   * started between the two listings is never missed.
   */
  static SchedulerState of(String state, List<String> flags, boolean runsJobs) {
    String base = state.toLowerCase(Locale.ROOT);
    if (base.equals("down") || flags.stream().anyMatch(UNREACHABLE::contains)) {
      return SchedulerState.DOWN;
    }
    if (flags.contains("FAIL") || !WORKING.contains(base)) {
      return SchedulerState.UNKNOWN;
    }
    if (flags.contains("DRAIN")) {
      boolean idle = base.equals("idle") && !flags.contains("COMPLETING") && !runsJobs;
      return idle ? SchedulerState.DRAINED : SchedulerState.DRAINING;
    }
    return SchedulerState.AVAILABLE;
  }

  /**
   * Returns the state as {@code scontrol show node} words it: the base state in upper case and each
   * flag after a {@code +}, e.g. {@code MIXED+DRAIN} or {@code DOWN+DRAIN+NOT_RESPONDING}.
   */
  static String words(String state, List<String> flags) {
    StringBuilder words = new StringBuilder(state.toUpperCase(Locale.ROOT));
    for (String flag : flags) {
      words.append('+').append(flag);
    }
    return words.toString();
  }
}
