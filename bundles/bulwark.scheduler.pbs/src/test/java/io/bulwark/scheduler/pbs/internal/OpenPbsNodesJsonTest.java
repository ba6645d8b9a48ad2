package io.bulwark.scheduler.pbs.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bulwark.api.scheduler.SchedulerNode;
import io.bulwark.api.scheduler.SchedulerState;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Reading {@code pbsnodes -a -F json}. The samples are laid out as OpenPBS's pbs_json.c
 * (generate_json) prints them: four-space indents, {@code "key":value}, job arrays without the
 * {@code /<cpu>} suffix, numbers unquoted, with the node attributes the PBS Professional Reference
 * Guide lists for {@code pbsnodes -av} (Mom, ntype, state, pcpus, jobs, resources_available.*,
 * resources_assigned.*, comment, queue, partition, resv_enable, sharing, last_state_change_time).
 */
class OpenPbsNodesJsonTest {
  private static String sample(String name) throws IOException {
    try (InputStream in = OpenPbsNodesJsonTest.class.getResourceAsStream(name)) {
      assertThat(in).as(name).isNotNull();
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  @Test
  void readsEveryNodeOfAListing() throws Exception {
    Map<String, SchedulerNode> nodes =
        OpenPbsNodesJson.parse(sample("openpbs-pbsnodes-a-F-json.json")).nodes();

    assertThat(nodes.keySet())
        .containsExactly(
            "gpu-a01", "gpu-a02", "gpu-a03", "gpu-a04", "gpu-a05", "gpu-a06", "gpu-a07");

    SchedulerNode free = nodes.get("gpu-a01");
    assertThat(free.state()).isEqualTo(SchedulerState.AVAILABLE);
    assertThat(free.schedulerState()).isEqualTo("free");
    assertThat(free.pools()).containsExactly("gpu");
    assertThat(free.jobs()).isEmpty();
    assertThat(free.reason()).isEmpty();

    SchedulerNode busy = nodes.get("gpu-a02");
    assertThat(busy.state()).isEqualTo(SchedulerState.AVAILABLE);
    assertThat(busy.jobs())
        .as("a job listed twice, not in a row, is one job")
        .containsExactly("1147579.pbs-head.cluster", "1147580.pbs-head.cluster");
    assertThat(busy.pools()).containsExactlyInAnyOrder("gpu", "long");

    SchedulerNode draining = nodes.get("gpu-a03");
    assertThat(draining.state()).isEqualTo(SchedulerState.DRAINING);
    assertThat(draining.reason()).isEqualTo("bulwark: xid 79 on GPU 3");
    assertThat(draining.pools()).containsExactlyInAnyOrder("gpu", "east");
    assertThat(draining.jobs()).containsExactly("1147600.pbs-head.cluster");

    SchedulerNode drained = nodes.get("gpu-a04");
    assertThat(drained.state()).isEqualTo(SchedulerState.DRAINED);
    assertThat(drained.reason()).as("a numeric comment, printed unquoted").isEqualTo("42");

    assertThat(nodes.get("gpu-a05").state()).isEqualTo(SchedulerState.DOWN);
    assertThat(nodes.get("gpu-a05").reason()).isEqualTo("node down: communication closed");
    assertThat(nodes.get("gpu-a06").state())
        .as("offline but unreachable: its jobs cannot be known")
        .isEqualTo(SchedulerState.DOWN);
    assertThat(nodes.get("gpu-a07").state())
        .as("offline while provisioning is not known to be drained")
        .isEqualTo(SchedulerState.UNKNOWN);
  }

  @Test
  void readsAHostTheServerDoesNotKnowAsAnError() throws Exception {
    PbsListing listing = OpenPbsNodesJson.parse(sample("openpbs-pbsnodes-F-json-unknown.json"));

    assertThat(listing.nodes()).isEmpty();
    assertThat(listing.errors()).containsExactly(Map.entry("gpu-z99", "Unknown node "));
  }

  @Test
  void dropsACpuSuffixAndReadsAJobStringToo() throws Exception {
    String json =
        "{\"nodes\":{\"n1\":{\"state\":\"job-busy\",\"jobs\":[\"7.head/0\",\"7.head/1\","
            + "\"8.head/3\"]},\"n2\":{\"state\":\"job-busy\",\"jobs\":\"9.head/0, 9.head/1\"}}}";

    Map<String, SchedulerNode> nodes = OpenPbsNodesJson.parse(json).nodes();

    assertThat(nodes.get("n1").jobs()).containsExactly("7.head", "8.head");
    assertThat(nodes.get("n2").jobs()).containsExactly("9.head");
  }

  @Test
  void aNodeWithoutAStateIsUnknown() throws Exception {
    SchedulerNode node =
        OpenPbsNodesJson.parse("{\"nodes\":{\"n1\":{\"comment\":\"x\"}}}").nodes().get("n1");

    assertThat(node.state()).isEqualTo(SchedulerState.UNKNOWN);
    assertThat(node.schedulerState()).isEmpty();
  }

  @Test
  void refusesWhatIsNotAListing() {
    assertThatThrownBy(() -> OpenPbsNodesJson.parse(""))
        .isInstanceOf(PbsOutputException.class)
        .hasMessage("it printed no JSON");
    assertThatThrownBy(() -> OpenPbsNodesJson.parse("pbsnodes: Server has no node list"))
        .isInstanceOf(PbsOutputException.class)
        .hasMessageStartingWith("it printed something that is not JSON: ");
    assertThatThrownBy(() -> OpenPbsNodesJson.parse("{\"nodes\":{\"n1\":{\"state\":\"free\""))
        .isInstanceOf(PbsOutputException.class)
        .hasMessageStartingWith("it printed something that is not JSON: ");
    assertThatThrownBy(() -> OpenPbsNodesJson.parse("{\"nodes\":{}} {}"))
        .isInstanceOf(PbsOutputException.class)
        .hasMessage("it printed text after the JSON object");
    assertThatThrownBy(() -> OpenPbsNodesJson.parse("[1,2]"))
        .isInstanceOf(PbsOutputException.class)
        .hasMessage("its JSON has no \"nodes\" object");
    assertThatThrownBy(() -> OpenPbsNodesJson.parse("{\"nodes\":{\"n1\":\"free\"}}"))
        .isInstanceOf(PbsOutputException.class)
        .hasMessage("node \"n1\" is not a JSON object");
    assertThatThrownBy(() -> OpenPbsNodesJson.parse("[".repeat(100) + "]".repeat(100)))
        .isInstanceOf(PbsOutputException.class)
        .hasMessageContaining("nested deeper");
  }
}
