package io.bulwark.scheduler.slurm.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bulwark.api.scheduler.SchedulerNode;
import io.bulwark.api.scheduler.SchedulerState;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Reading {@code sinfo --json} and mapping what it lists, on outputs that sinfo 22.05.8 (Debian 12)
 * printed against the test cluster of {@code SlurmCluster}: nodes gpu01, gpu02, gpu03 (partition
 * gpu) and gpu07 (partitions gpu and debug), and a second cluster of n1 and n2 for a node whose
 * slurmd was stopped.
 */
class SinfoJsonTest {
  @Test
  void readsEveryNodeWithItsStatePartitionsAndNoReasonWhenIdle() throws Exception {
    Map<String, SinfoNode> nodes = SinfoJson.parse(Samples.read("sinfo-22.05-idle.json"));

    assertThat(nodes.keySet()).containsExactly("gpu01", "gpu02", "gpu03", "gpu07");
    SinfoNode gpu07 = nodes.get("gpu07");
    assertThat(gpu07.state()).isEqualTo("idle");
    assertThat(gpu07.flags()).isEmpty();
    assertThat(gpu07.reason()).isEmpty();
    assertThat(gpu07.partitions()).containsExactly("gpu", "debug");

    SchedulerNode node = SlurmNodeStates.node(gpu07, List.of());
    assertThat(node.state()).isEqualTo(SchedulerState.AVAILABLE);
    assertThat(node.schedulerState()).isEqualTo("IDLE");
    assertThat(node.pools()).containsExactlyInAnyOrder("gpu", "debug");
  }

  @Test
  void mapsDrainedNodesWithJobsAsDrainingAndWithoutAsDrained() throws Exception {
    Map<String, SinfoNode> nodes = SinfoJson.parse(Samples.read("sinfo-22.05-draining.json"));
    Map<String, List<String>> jobs = SqueueJobs.parse(Samples.read("squeue-22.05-draining.txt"));

    SchedulerNode gpu01 = SlurmNodeStates.node(nodes.get("gpu01"), jobs.get("gpu01"));
    assertThat(gpu01.state()).isEqualTo(SchedulerState.DRAINING);
    assertThat(gpu01.schedulerState()).isEqualTo("MIXED+DRAIN");
    assertThat(gpu01.reason()).isEqualTo("bulwark: XID 79 on GPU 3 (fell off the bus)");
    assertThat(gpu01.jobs()).containsExactly("1");

    SchedulerNode gpu03 = SlurmNodeStates.node(nodes.get("gpu03"), List.of());
    assertThat(gpu03.state()).isEqualTo(SchedulerState.DRAINED);
    assertThat(gpu03.schedulerState()).isEqualTo("IDLE+DRAIN");
    assertThat(gpu03.reason()).isEqualTo("bulwark: thermal");

    SchedulerNode gpu07 = SlurmNodeStates.node(nodes.get("gpu07"), List.of());
    assertThat(gpu07.state()).isEqualTo(SchedulerState.AVAILABLE);
  }

  @Test
  void mapsAnAllocatedDrainedNodeAsDrainingAndBusyNodesAsAvailable() throws Exception {
    Map<String, SinfoNode> nodes =
        SinfoJson.parse(Samples.read("sinfo-22.05-allocated-drain.json"));
    Map<String, List<String>> jobs = SqueueJobs.parse(Samples.read("squeue-22.05-hostlists.txt"));

    SchedulerNode gpu02 = SlurmNodeStates.node(nodes.get("gpu02"), jobs.get("gpu02"));
    assertThat(gpu02.state()).isEqualTo(SchedulerState.DRAINING);
    assertThat(gpu02.schedulerState()).isEqualTo("ALLOCATED+DRAIN");
    assertThat(gpu02.jobs()).containsExactly("6", "7");
    SchedulerNode gpu01 = SlurmNodeStates.node(nodes.get("gpu01"), jobs.get("gpu01"));
    assertThat(gpu01.state()).isEqualTo(SchedulerState.AVAILABLE);
    assertThat(gpu01.schedulerState()).isEqualTo("MIXED");
    SchedulerNode gpu07 = SlurmNodeStates.node(nodes.get("gpu07"), jobs.get("gpu07"));
    assertThat(gpu07.state()).isEqualTo(SchedulerState.AVAILABLE);
    assertThat(gpu07.schedulerState()).isEqualTo("ALLOCATED");
    assertThat(gpu07.jobs()).containsExactly("6", "8");
  }

  @Test
  void mapsANodeThatStoppedAnsweringAsDownWhetherDrainedOrNot() throws Exception {
    SinfoNode down = SinfoJson.parse(Samples.read("sinfo-22.05-down.json")).get("n2");
    SinfoNode drained = SinfoJson.parse(Samples.read("sinfo-22.05-down-drain.json")).get("n2");

    SchedulerNode n2 = SlurmNodeStates.node(down, List.of());
    assertThat(n2.state()).isEqualTo(SchedulerState.DOWN);
    assertThat(n2.schedulerState()).isEqualTo("DOWN+NOT_RESPONDING");
    assertThat(n2.reason()).isEqualTo("Not responding");
    SchedulerNode n2Drained = SlurmNodeStates.node(drained, List.of());
    assertThat(n2Drained.state()).isEqualTo(SchedulerState.DOWN);
    assertThat(n2Drained.schedulerState()).isEqualTo("DOWN+DRAIN+NOT_RESPONDING");
    assertThat(n2Drained.reason()).isEqualTo("down and drained");
  }

  @Test
  void readsTheErrorsSinfoListsWithExitStatusZeroWhenSlurmctldIsGoneAsAFailure() {
    assertThatThrownBy(() -> SinfoJson.parse(Samples.read("sinfo-22.05-no-controller.json")))
        .isInstanceOf(SlurmOutputException.class)
        .hasMessage("sinfo reported Unspecified error (errno -1)")
        .matches(e -> ((SlurmOutputException) e).reportedBySlurm());
  }

  @Test
  void refusesWhatIsNotASinfoListing() {
    assertThatThrownBy(() -> SinfoJson.parse("PARTITION AVAIL TIMELIMIT NODES STATE NODELIST"))
        .isInstanceOf(SlurmOutputException.class)
        .hasMessageContaining("not a JSON object")
        .matches(e -> !((SlurmOutputException) e).reportedBySlurm());
    assertThatThrownBy(() -> SinfoJson.parse("{\"meta\": {}, \"errors\": []}"))
        .hasMessageContaining("no \"nodes\" list");
    assertThatThrownBy(() -> SinfoJson.parse("{\"errors\": [], \"nodes\": [{\"name\": \"n1\"}]}"))
        .hasMessageContaining("node entry 0 has no \"name\" or \"state\"");
    assertThatThrownBy(() -> SinfoJson.parse("{\"errors\": [], \"nodes\": {\"n1\": {}}}"))
        .hasMessageContaining("layout of Slurm 22.05");
    assertThatThrownBy(
            () ->
                SinfoJson.parse(
                    "{\"errors\": [], \"nodes\": [{\"name\": \"n1\", \"state\": \"idle\","
                        + " \"state_flags\": \"DRAIN\"}]}"))
        .hasMessageContaining("layout of Slurm 22.05");
  }
}
