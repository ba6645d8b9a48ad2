package io.bulwark.scheduler.pbs.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bulwark.api.scheduler.SchedulerException;
import io.bulwark.api.scheduler.SchedulerNode;
import io.bulwark.api.scheduler.SchedulerState;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The connector against Torque's pbsnodes. No Torque server can be installed on the build machine,
 * so a test double stands in for pbsnodes: a Python 3 script that keeps the server's nodes in a
 * state file and answers with the options, XML, messages and exit statuses of Torque's pbsnodes as
 * its pbsnodes(8B) manual page and src/cmds/pbsnodes.c and src/cmds/MXML.c describe them (see the
 * double's header); in particular a refused change is reported on standard error with exit status
 * 0.
 */
class PbsConnectorTorqueTest {
  @TempDir Path folder;

  private PbsnodesDouble pbs;
  private PbsConnector connector;

  @BeforeEach
  void startCluster() {
    pbs = PbsnodesDouble.install(folder, "torque");
    pbs.node(
        "gpu-t01",
        new JsonObject()
            .put("state", "job-exclusive")
            .put("power_state", "Running")
            .put("np", "4")
            .put("properties", "gpu,k80")
            .put("ntype", "cluster")
            .put("jobs", "0/12.torque-head,1/12.torque-head,2-3/13.torque-head")
            .put("status", "rectime=1699630815,state=free")
            .put("mom_service_port", "15002")
            .put("mom_manager_port", "15003"));
    pbs.node(
        "gpu-t02", new JsonObject().put("state", "free").put("np", "4").put("ntype", "cluster"));
    connector = new PbsConnector(pbs.options("torque", Optional.empty(), Duration.ofSeconds(10)));
  }

  @Test
  void drainingANodeWithJobsLeavesItDrainingWithTheNotePbsShows() throws Exception {
    // when
    connector.drain("gpu-t01", "xid 79 on GPU <3> & 'row remap'");

    // then
    assertThat(pbs.lastCall())
        .containsExactly("-o", "-N", "bulwark: xid 79 on GPU <3> & 'row remap'", "gpu-t01");
    assertThat(pbs.node("gpu-t01").getString("note"))
        .isEqualTo("bulwark: xid 79 on GPU <3> & 'row remap'");
    SchedulerNode node = connector.node("gpu-t01").orElseThrow();
    assertThat(pbs.lastCall()).containsExactly("-x", "gpu-t01");
    assertThat(node.state()).isEqualTo(SchedulerState.DRAINING);
    assertThat(node.schedulerState()).isEqualTo("job-exclusive,offline");
    assertThat(node.reason()).isEqualTo("bulwark: xid 79 on GPU <3> & 'row remap'");
    assertThat(node.jobs()).containsExactly("12.torque-head", "13.torque-head");
    assertThat(node.pools()).containsExactlyInAnyOrder("gpu", "k80");
  }

  @Test
  void whenTheLastJobEndsTheNodeIsDrained() throws Exception {
    // given
    connector.drain("gpu-t01", "xid 79 on GPU 3");

    // when
    pbs.endJobs("gpu-t01");

    // then
    SchedulerNode node = connector.node("gpu-t01").orElseThrow();
    assertThat(node.state()).isEqualTo(SchedulerState.DRAINED);
    assertThat(node.jobs()).isEmpty();
  }

  @Test
  void resumingClearsOfflineAndTheNoteWithoutMarkingTheNodeDown() throws Exception {
    // given
    connector.drain("gpu-t01", "xid 79 on GPU 3");
    pbs.endJobs("gpu-t01");

    // when
    connector.resume("gpu-t01", "GPU replaced");

    // then
    assertThat(pbs.lastCall()).containsExactly("-c", "-N", "", "gpu-t01");
    assertThat(pbs.node("gpu-t01").containsKey("note")).isFalse();
    assertThat(pbs.node("gpu-t01").getString("state")).isEqualTo("free");
    SchedulerNode node = connector.node("gpu-t01").orElseThrow();
    assertThat(node.state()).isEqualTo(SchedulerState.AVAILABLE);
    assertThat(node.reason()).isEmpty();
  }

  @Test
  void drainAndResumeMayBeRepeated() throws Exception {
    connector.drain("gpu-t02", "xid 48");
    connector.drain("gpu-t02", "xid 48");
    assertThat(pbs.node("gpu-t02").getString("state")).isEqualTo("offline");
    assertThat(connector.node("gpu-t02").orElseThrow().state()).isEqualTo(SchedulerState.DRAINED);

    connector.resume("gpu-t02", "fixed");
    connector.resume("gpu-t02", "fixed");
    assertThat(pbs.node("gpu-t02").getString("state")).isEqualTo("free");
    assertThat(connector.node("gpu-t02").orElseThrow().state()).isEqualTo(SchedulerState.AVAILABLE);
  }

  @Test
  void listsEveryNode() throws Exception {
    List<SchedulerNode> nodes = connector.nodes();

    assertThat(pbs.lastCall()).containsExactly("-x");
    assertThat(nodes).extracting(SchedulerNode::name).containsExactly("gpu-t01", "gpu-t02");
    assertThat(nodes).extracting(SchedulerNode::state).containsOnly(SchedulerState.AVAILABLE);
  }

  @Test
  void aNodeTorqueDoesNotKnowIsEmptyToReadAndRefusedToDrainThoughPbsnodesExitsZero()
      throws Exception {
    assertThat(connector.node("gpu-z99")).isEmpty();
    assertThatThrownBy(() -> connector.drain("gpu-z99", "xid 79"))
        .isInstanceOf(SchedulerException.class)
        .hasMessageStartingWith("pbs: pbsnodes refused to drain gpu-z99: ")
        .hasMessageContaining(
            "Error setting note attribute for gpu-z99 - Unknown node / Error marking node"
                + " gpu-z99 - Unknown node;")
        .hasMessageContaining("check that the machine's host name is its PBS node name");
    assertThatThrownBy(() -> connector.resume("gpu-z99", "fixed"))
        .isInstanceOf(SchedulerException.class)
        .hasMessageContaining("refused to resume gpu-z99");
  }

  @Test
  void aClusterWithoutNodesListsNone() throws Exception {
    PbsnodesDouble empty = PbsnodesDouble.install(folder.resolve("empty"), "torque");

    assertThat(
            new PbsConnector(empty.options("torque", Optional.empty(), Duration.ofSeconds(10)))
                .nodes())
        .isEmpty();
  }
}
