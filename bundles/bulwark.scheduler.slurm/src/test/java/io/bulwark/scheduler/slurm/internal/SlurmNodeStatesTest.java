package io.bulwark.scheduler.slurm.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.bulwark.api.scheduler.SchedulerState;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The mapping for every base state and the flags that matter, as sinfo 22.05 spells them. */
class SlurmNodeStatesTest {
  private static SchedulerState of(String state, String... flags) {
    return SlurmNodeStates.of(state, List.of(flags), false);
  }

  @Test
  void takesIdleMixedAndAllocatedNodesWithoutFlagsThatMatterAsAvailable() {
    assertThat(of("idle")).isEqualTo(SchedulerState.AVAILABLE);
    assertThat(of("mixed")).isEqualTo(SchedulerState.AVAILABLE);
    assertThat(of("allocated")).isEqualTo(SchedulerState.AVAILABLE);
    assertThat(of("idle", "RESERVED", "MAINTENANCE")).isEqualTo(SchedulerState.AVAILABLE);
    assertThat(of("allocated", "COMPLETING")).isEqualTo(SchedulerState.AVAILABLE);
  }

  @Test
  void callsADrainDrainedOnlyWhenTheNodeIsIdleCompletesNothingAndRunsNoJob() {
    assertThat(of("idle", "DRAIN")).isEqualTo(SchedulerState.DRAINED);
    assertThat(of("mixed", "DRAIN")).isEqualTo(SchedulerState.DRAINING);
    assertThat(of("allocated", "DRAIN")).isEqualTo(SchedulerState.DRAINING);
    assertThat(of("idle", "COMPLETING", "DRAIN")).isEqualTo(SchedulerState.DRAINING);
    assertThat(SlurmNodeStates.of("idle", List.of("DRAIN"), true))
        .as("squeue still lists a job there")
        .isEqualTo(SchedulerState.DRAINING);
  }

  @Test
  void takesANodeSlurmCannotReachAsDownWhateverElseItSays() {
    assertThat(of("down")).isEqualTo(SchedulerState.DOWN);
    assertThat(of("down", "DRAIN")).isEqualTo(SchedulerState.DOWN);
    assertThat(of("idle", "NOT_RESPONDING")).isEqualTo(SchedulerState.DOWN);
    assertThat(of("idle", "DRAIN", "NOT_RESPONDING")).isEqualTo(SchedulerState.DOWN);
    assertThat(of("idle", "POWERED_DOWN")).isEqualTo(SchedulerState.DOWN);
    assertThat(of("idle", "POWERING_UP")).isEqualTo(SchedulerState.DOWN);
    assertThat(of("mixed", "REBOOT_ISSUED")).isEqualTo(SchedulerState.DOWN);
  }

  @Test
  void leavesWhatItDoesNotMapUnknownRatherThanDrained() {
    assertThat(of("idle", "FAIL")).isEqualTo(SchedulerState.UNKNOWN);
    assertThat(of("mixed", "FAIL", "DRAIN")).isEqualTo(SchedulerState.UNKNOWN);
    assertThat(of("future")).isEqualTo(SchedulerState.UNKNOWN);
    assertThat(of("unknown", "DRAIN")).isEqualTo(SchedulerState.UNKNOWN);
    assertThat(of("error")).isEqualTo(SchedulerState.UNKNOWN);
    assertThat(of("planned-by-a-later-slurm")).isEqualTo(SchedulerState.UNKNOWN);
  }

  @Test
  void wordsTheStateAsScontrolShowsIt() {
    assertThat(SlurmNodeStates.words("mixed", List.of("DRAIN"))).isEqualTo("MIXED+DRAIN");
    assertThat(SlurmNodeStates.words("down", List.of("DRAIN", "NOT_RESPONDING")))
        .isEqualTo("DOWN+DRAIN+NOT_RESPONDING");
    assertThat(SlurmNodeStates.words("idle", List.of())).isEqualTo("IDLE");
  }
}
