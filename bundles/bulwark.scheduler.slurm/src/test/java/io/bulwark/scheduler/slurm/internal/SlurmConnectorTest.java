package io.bulwark.scheduler.slurm.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bulwark.api.scheduler.SchedulerException;
import io.bulwark.api.scheduler.SchedulerNode;
import io.bulwark.api.scheduler.SchedulerState;
import io.bulwark.testing.TypedConfig;
import io.bulwark.testing.slurm.SlurmCluster;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The connector against a real Slurm 22.05 cluster on loopback ({@link SlurmCluster}): slurmctld
 * and one slurmd per node, driven through the real scontrol, sinfo and squeue.
 */
class SlurmConnectorTest {
  private static final Duration WAIT = Duration.ofSeconds(30);
  private static final List<String> NODES = List.of("gpu01", "gpu02", "gpu03", "gpu07");

  @TempDir Path dir;
  private SlurmCluster cluster;
  private SlurmConnector slurm;

  @BeforeEach
  void startCluster() {
    cluster =
        SlurmCluster.builder(dir)
            .nodes(NODES)
            .partition("gpu", NODES)
            .partition("debug", List.of("gpu07"))
            .start();
    slurm = connector(10);
  }

  @AfterEach
  void stopCluster() {
    cluster.close();
  }

  @Test
  void drainsANodeWithARunningJobUntilTheJobEndsAndResumesIt() throws Exception {
    String job = cluster.submit("gpu02", Duration.ofMinutes(10));

    slurm.drain("gpu02", "XID 79 on GPU 3\nGPU has fallen off the bus");

    SchedulerNode draining = slurm.node("gpu02").orElseThrow();
    assertThat(draining.state()).isEqualTo(SchedulerState.DRAINING);
    assertThat(draining.schedulerState()).isEqualTo("MIXED+DRAIN");
    assertThat(draining.reason()).isEqualTo("bulwark: XID 79 on GPU 3 GPU has fallen off the bus");
    assertThat(draining.jobs()).containsExactly(job);
    assertThat(draining.pools()).containsExactly("gpu");
    assertThat(cluster.scontrol("show", "node", "gpu02"))
        .contains("State=MIXED+DRAIN")
        .contains("Reason=bulwark: XID 79 on GPU 3 GPU has fallen off the bus [");
    assertThat(slurm.evict("gpu02")).as("the job still runs").isFalse();
    assertThat(slurm.node("gpu01").orElseThrow().state()).isEqualTo(SchedulerState.AVAILABLE);

    cluster.cancel(job);
    List<SchedulerState> seen = new ArrayList<>();
    SchedulerNode drained = await("gpu02", SchedulerState.DRAINED, seen);
    assertThat(drained.jobs()).isEmpty();
    assertThat(drained.schedulerState()).isEqualTo("IDLE+DRAIN");
    assertThat(seen).containsOnly(SchedulerState.DRAINING, SchedulerState.DRAINED);
    assertThat(slurm.evict("gpu02")).isTrue();

    slurm.resume("gpu02", "GPU replaced");

    SchedulerNode resumed = await("gpu02", SchedulerState.AVAILABLE, new ArrayList<>());
    assertThat(resumed.reason()).isEmpty();
    assertThat(cluster.scontrol("show", "node", "gpu02")).contains("State=IDLE ");
  }

  @Test
  void reportsTheNodeDrainedOnlyOnceTheJobHasEndedByItself() throws Exception {
    String job = cluster.submit("gpu03", Duration.ofSeconds(3));
    slurm.drain("gpu03", "thermal");

    List<SchedulerState> seen = new ArrayList<>();
    SchedulerNode drained = await("gpu03", SchedulerState.DRAINED, seen);

    assertThat(seen).startsWith(SchedulerState.DRAINING);
    assertThat(drained.jobs()).isEmpty();
    assertThat(cluster.run("squeue", "--noheader", "--jobs=" + job, "--format=%T")).isBlank();
  }

  @Test
  void drainsAndResumesIdempotently() throws Exception {
    slurm.drain("gpu01", "first finding");
    slurm.drain("gpu01", "second finding");

    SchedulerNode drained = slurm.node("gpu01").orElseThrow();
    assertThat(drained.state()).isEqualTo(SchedulerState.DRAINED);
    assertThat(drained.reason()).isEqualTo("bulwark: second finding");

    slurm.resume("gpu01", "repaired");
    slurm.resume("gpu01", "repaired, told twice");
    slurm.resume("gpu03", "never drained");

    assertThat(await("gpu01", SchedulerState.AVAILABLE, new ArrayList<>()).reason()).isEmpty();
    assertThat(slurm.node("gpu03").orElseThrow().state()).isEqualTo(SchedulerState.AVAILABLE);
  }

  @Test
  void refusesToDrainANodeSlurmDoesNotKnowSayingWhatToCheck() throws Exception {
    assertThatThrownBy(() -> slurm.drain("gpu99", "XID 79"))
        .isInstanceOf(SchedulerException.class)
        .hasMessage(
            "slurm: scontrol refused to drain gpu99: slurm_update error: Invalid node name"
                + " specified; check that the machine's host name is its Slurm node name (sinfo -N"
                + " lists them)");
    assertThatThrownBy(() -> slurm.resume("gpu99", "repaired"))
        .isInstanceOf(SchedulerException.class)
        .hasMessageStartingWith("slurm: scontrol refused to resume gpu99: ")
        .hasMessageContaining("Invalid node name specified");
    assertThat(slurm.node("gpu99")).isEmpty();
  }

  @Test
  void refusesANodeListThatWouldDrainSeveralNodes() throws Exception {
    assertThatThrownBy(() -> slurm.drain("gpu[01-03]", "XID 79"))
        .isInstanceOf(SchedulerException.class)
        .hasMessageContaining("not one Slurm node name");
    assertThatThrownBy(() -> slurm.drain("gpu01,gpu02", "XID 79"))
        .isInstanceOf(SchedulerException.class);
    assertThatThrownBy(() -> slurm.drain("gpu01 State=DOWN", "XID 79"))
        .isInstanceOf(SchedulerException.class);

    assertThat(slurm.nodes())
        .extracting(SchedulerNode::state)
        .containsOnly(SchedulerState.AVAILABLE);
    assertThat(slurm.node("gpu[01-03]")).isEmpty();
  }

  @Test
  void mapsEveryNodeToItsJobsWithAJobOnSeveralNodesOnEachOfThem() throws Exception {
    String onGpu01 = cluster.submit("gpu01", Duration.ofMinutes(10));
    String onGpu03 = cluster.submit("gpu03", Duration.ofMinutes(10));
    String spanning = cluster.submit(List.of("gpu01", "gpu02", "gpu03"), Duration.ofMinutes(10));
    assertThat(cluster.run("squeue", "--noheader", "--jobs=" + spanning, "--format=%N").strip())
        .as("Slurm writes the job's nodes as a range")
        .isEqualTo("gpu[01-03]");

    Map<String, SchedulerNode> nodes =
        slurm.nodes().stream().collect(Collectors.toMap(SchedulerNode::name, Function.identity()));

    assertThat(nodes.keySet()).containsExactlyInAnyOrderElementsOf(NODES);
    assertThat(nodes.get("gpu01").jobs()).containsExactlyInAnyOrder(onGpu01, spanning);
    assertThat(nodes.get("gpu02").jobs()).containsExactly(spanning);
    assertThat(nodes.get("gpu03").jobs()).containsExactlyInAnyOrder(onGpu03, spanning);
    assertThat(nodes.get("gpu07").jobs()).isEmpty();
    assertThat(nodes.get("gpu07").pools()).containsExactlyInAnyOrder("gpu", "debug");
    assertThat(nodes.values())
        .extracting(SchedulerNode::state)
        .containsOnly(SchedulerState.AVAILABLE);
    assertThat(slurm.node("gpu02").orElseThrow().jobs()).containsExactly(spanning);
    assertThat(slurm.node("gpu03").orElseThrow().jobs())
        .containsExactlyInAnyOrder(onGpu03, spanning);
  }

  @Test
  void failsWithinItsTimeoutWhenSlurmctldIsGone() {
    cluster.stopController();
    SlurmConnector quick = connector(2);

    long began = System.nanoTime();
    assertThatThrownBy(() -> quick.drain("gpu01", "XID 79"))
        .isInstanceOf(SchedulerException.class)
        .hasMessageStartingWith(
            "slurm: scontrol did not answer within 2 s when asked to drain gpu01 and was stopped;"
                + " check that slurmctld is up (scontrol ping)");
    Duration took = Duration.ofNanos(System.nanoTime() - began);
    assertThat(took).isBetween(Duration.ofSeconds(2), Duration.ofSeconds(5));
    assertThatThrownBy(quick::nodes)
        .isInstanceOf(SchedulerException.class)
        .hasMessageContaining("sinfo did not answer within 2 s");
    assertThat(ProcessHandle.current().children().filter(ProcessHandle::isAlive))
        .as("the killed commands")
        .noneMatch(p -> p.info().command().orElse("").matches(".*/(scontrol|sinfo)$"));
  }

  @Test
  void saysWhatSlurmSaysWhenSlurmctldIsGoneAndTheTimeoutLetsItSpeak() {
    cluster.stopController();
    SlurmConnector patient = connector(30);

    assertThatThrownBy(patient::nodes)
        .isInstanceOf(SchedulerException.class)
        .hasMessageStartingWith(
            "slurm: sinfo could not list its nodes: sinfo reported Unspecified error (errno -1)")
        .hasMessageContaining("check that slurmctld is up (scontrol ping)")
        .hasMessageContaining(cluster.slurmConf().toString());
    assertThatThrownBy(() -> patient.drain("gpu01", "XID 79"))
        .isInstanceOf(SchedulerException.class)
        .hasMessageStartingWith(
            "slurm: scontrol refused to drain gpu01: slurm_update error: Unable to contact slurm"
                + " controller (connect failure); check that slurmctld is up");
  }

  private SlurmConnector connector(int timeoutSeconds) {
    return new SlurmConnector(
        TypedConfig.of(
            SlurmConfig.class,
            Map.of(
                "slurmConf", cluster.slurmConf().toString(),
                "binDir", cluster.program("scontrol").getParent().toString(),
                "timeoutSeconds", timeoutSeconds)));
  }

  private SchedulerNode await(String node, SchedulerState state, List<SchedulerState> seen)
      throws Exception {
    long deadline = System.nanoTime() + WAIT.toNanos();
    SchedulerNode last = null;
    while (System.nanoTime() < deadline) {
      last = slurm.node(node).orElseThrow();
      if (seen.isEmpty() || seen.get(seen.size() - 1) != last.state()) {
        seen.add(last.state());
      }
      if (last.state() == state) {
        return last;
      }
      Thread.sleep(50);
    }
    throw new AssertionError(node + " is not " + state + " after " + WAIT + ": " + last);
  }
}
