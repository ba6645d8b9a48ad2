package io.bulwark.scheduler.pbs.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bulwark.api.scheduler.SchedulerException;
import io.bulwark.api.scheduler.SchedulerNode;
import io.bulwark.api.scheduler.SchedulerState;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The connector against OpenPBS's pbsnodes. No PBS server can be installed on the build machine, so
 * a test double stands in for pbsnodes: a Python 3 script that keeps the server's nodes in a state
 * file and answers with the options, JSON layout, messages and exit statuses of the real command as
 * the Altair PBS Professional Reference Guide ("pbsnodes") and OpenPBS's pbsnodes.8B,
 * src/cmds/pbsnodes.c and src/lib/Libcmds/pbs_json.c describe them (see the double's header).
 */
class PbsConnectorOpenPbsTest {
  @TempDir Path folder;

  private PbsnodesDouble pbs;
  private PbsConnector connector;

  @BeforeEach
  void startCluster() {
    pbs = PbsnodesDouble.install(folder, "openpbs");
    pbs.node(
        "gpu-a01",
        new JsonObject()
            .put("Mom", "gpu-a01.cluster")
            .put("ntype", "PBS")
            .put("state", "job-exclusive")
            .put("pcpus", 64)
            .put("jobs", "101.pbs-head/0, 101.pbs-head/1, 102.pbs-head/2")
            .put(
                "resources_available",
                new JsonObject().put("host", "gpu-a01").put("ngpus", 8).put("Qlist", "gpu,long"))
            .put("resources_assigned", new JsonObject().put("ncpus", 3))
            .put("queue", "gpu"));
    pbs.node(
        "gpu-a02",
        new JsonObject()
            .put("Mom", "gpu-a02.cluster")
            .put("state", "free")
            .put("resources_available", new JsonObject().put("host", "gpu-a02"))
            .put("queue", "gpu"));
    connector = new PbsConnector(pbs.options("openpbs", Optional.empty(), Duration.ofSeconds(10)));
  }

  @Test
  void drainingANodeWithJobsLeavesItDrainingWithTheCommentPbsShows() throws Exception {
    // when
    connector.drain("gpu-a01", "xid 79 on GPU 3 (fell off the bus)");

    // then
    assertThat(pbs.lastCall())
        .containsExactly("-o", "-C", "bulwark: xid 79 on GPU 3 (fell off the bus)", "gpu-a01");
    assertThat(pbs.node("gpu-a01").getString("state")).isEqualTo("job-exclusive,offline");
    assertThat(pbs.node("gpu-a01").getString("comment"))
        .isEqualTo("bulwark: xid 79 on GPU 3 (fell off the bus)");
    SchedulerNode node = connector.node("gpu-a01").orElseThrow();
    assertThat(node.state()).isEqualTo(SchedulerState.DRAINING);
    assertThat(node.schedulerState()).isEqualTo("job-exclusive,offline");
    assertThat(node.reason()).isEqualTo("bulwark: xid 79 on GPU 3 (fell off the bus)");
    assertThat(node.jobs()).containsExactly("101.pbs-head", "102.pbs-head");
    assertThat(connector.evict("gpu-a01")).isFalse();
  }

  @Test
  void whenTheLastJobEndsTheNodeIsDrained() throws Exception {
    // given
    connector.drain("gpu-a01", "xid 79 on GPU 3");

    // when
    pbs.endJobs("gpu-a01");

    // then
    SchedulerNode node = connector.node("gpu-a01").orElseThrow();
    assertThat(node.state()).isEqualTo(SchedulerState.DRAINED);
    assertThat(node.schedulerState()).isEqualTo("offline");
    assertThat(node.jobs()).isEmpty();
    assertThat(connector.evict("gpu-a01")).isTrue();
    assertThat(connector.nodes())
        .filteredOn(n -> n.name().equals("gpu-a01"))
        .singleElement()
        .extracting(SchedulerNode::state)
        .isEqualTo(SchedulerState.DRAINED);
  }

  @Test
  void resumingClearsOfflineAndTheComment() throws Exception {
    // given
    connector.drain("gpu-a01", "xid 79 on GPU 3");
    pbs.endJobs("gpu-a01");

    // when
    connector.resume("gpu-a01", "GPU 3 replaced");

    // then
    assertThat(pbs.lastCall()).containsExactly("-r", "-C", "", "gpu-a01");
    assertThat(pbs.node("gpu-a01").containsKey("comment")).isFalse();
    assertThat(pbs.node("gpu-a01").getString("state")).isEqualTo("free");
    SchedulerNode node = connector.node("gpu-a01").orElseThrow();
    assertThat(node.state()).isEqualTo(SchedulerState.AVAILABLE);
    assertThat(node.reason()).isEmpty();
  }

  @Test
  void drainAndResumeMayBeRepeated() throws Exception {
    // when
    connector.drain("gpu-a02", "row remap pending");
    connector.drain("gpu-a02", "row remap pending");

    // then
    assertThat(pbs.node("gpu-a02").getString("state")).isEqualTo("offline");
    assertThat(connector.node("gpu-a02").orElseThrow().state()).isEqualTo(SchedulerState.DRAINED);

    // when
    connector.resume("gpu-a02", "remapped");
    connector.resume("gpu-a02", "remapped");

    // then
    assertThat(pbs.node("gpu-a02").getString("state")).isEqualTo("free");
    assertThat(connector.node("gpu-a02").orElseThrow().state()).isEqualTo(SchedulerState.AVAILABLE);
  }

  @Test
  void listsEveryNodeWithItsQueuesAndJobs() throws Exception {
    // when
    List<SchedulerNode> nodes = connector.nodes();

    // then
    assertThat(pbs.lastCall()).containsExactly("-a", "-F", "json");
    assertThat(nodes).extracting(SchedulerNode::name).containsExactly("gpu-a01", "gpu-a02");
    assertThat(nodes.get(0).state()).isEqualTo(SchedulerState.AVAILABLE);
    assertThat(nodes.get(0).pools()).containsExactlyInAnyOrder("gpu", "long");
    assertThat(nodes.get(0).jobs()).containsExactly("101.pbs-head", "102.pbs-head");
    assertThat(nodes.get(1).state()).isEqualTo(SchedulerState.AVAILABLE);
    assertThat(nodes.get(1).jobs()).isEmpty();
  }

  @Test
  void aNodePbsDoesNotKnowIsEmptyToReadAndRefusedToDrain() throws Exception {
    // then
    assertThat(connector.node("gpu-z99")).isEmpty();
    assertThat(pbs.lastCall()).containsExactly("-F", "json", "gpu-z99");
    assertThatThrownBy(() -> connector.drain("gpu-z99", "xid 79"))
        .isInstanceOf(SchedulerException.class)
        .hasMessageStartingWith("pbs: pbsnodes refused to drain gpu-z99: ")
        .hasMessageContaining("Error marking node gpu-z99 - Unknown node")
        .hasMessageContaining("check that the machine's host name is its PBS node name");
    assertThatThrownBy(() -> connector.resume("gpu-z99", "fixed"))
        .isInstanceOf(SchedulerException.class)
        .hasMessageContaining("refused to resume gpu-z99")
        .hasMessageContaining("Unknown node");
  }

  @Test
  void theCommentIsOneLineOfAtMost79BytesWhateverTheReason() throws Exception {
    // when
    connector.drain(
        "gpu-a02",
        "xid 79\non GPU 3\t\u0007(bus)\u001b[31m and a long story about the node that goes on"
            + " and on and on");

    // then
    String comment = pbs.node("gpu-a02").getString("comment");
    assertThat(comment).startsWith("bulwark: xid 79 on GPU 3 (bus) [31m and a long story");
    assertThat(comment.getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(79);
    assertThat(comment.chars().noneMatch(Character::isISOControl)).isTrue();
    assertThat(connector.node("gpu-a02").orElseThrow().reason()).isEqualTo(comment);
  }

  @Test
  void asksTheConfiguredServer() throws Exception {
    // given
    PbsConnector east =
        new PbsConnector(pbs.options("openpbs", Optional.of("pbs-east"), Duration.ofSeconds(10)));

    // when
    east.drain("gpu-a02", "xid 48");

    // then
    assertThat(pbs.lastCall())
        .containsExactly("-s", "pbs-east", "-o", "-C", "bulwark: xid 48", "gpu-a02");
  }

  @Test
  void refusesANameThatPbsnodesWouldTakeForAnOption() {
    assertThatThrownBy(() -> connector.drain("-a", "xid 79"))
        .isInstanceOf(SchedulerException.class)
        .hasMessageContaining("pbs: cannot drain \"-a\": not a PBS node name");
    assertThatThrownBy(() -> connector.node("gpu a01"))
        .isInstanceOf(SchedulerException.class)
        .hasMessageContaining("not a PBS node name");
    assertThat(pbs.calls()).isEmpty();
  }

  @Test
  void aClusterWithoutNodesListsNone() throws Exception {
    // given
    PbsnodesDouble empty = PbsnodesDouble.install(folder.resolve("empty"), "openpbs");

    // then
    assertThat(
            new PbsConnector(empty.options("openpbs", Optional.empty(), Duration.ofSeconds(10)))
                .nodes())
        .isEmpty();
  }
}
