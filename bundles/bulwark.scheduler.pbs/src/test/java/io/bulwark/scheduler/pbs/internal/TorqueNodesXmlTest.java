package io.bulwark.scheduler.pbs.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bulwark.api.scheduler.SchedulerNode;
import io.bulwark.api.scheduler.SchedulerState;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reading Torque's {@code pbsnodes -x}. The sample is one line of XML as Torque's MXML.c writes it,
 * with the node attributes the Torque Administrator Guide shows for {@code pbsnodes -a} (state,
 * power_state, np, properties, ntype, jobs, status, note, mom_service_port, mom_manager_port, gpus)
 * and job lists in both forms Torque has used ({@code 0/12.head} and {@code 0-7/12.head}).
 */
class TorqueNodesXmlTest {
  @TempDir Path folder;

  private static String sample(String name) throws IOException {
    try (InputStream in = TorqueNodesXmlTest.class.getResourceAsStream(name)) {
      assertThat(in).as(name).isNotNull();
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  @Test
  void readsEveryNodeOfAListing() throws Exception {
    Map<String, SchedulerNode> nodes =
        TorqueNodesXml.parse(sample("torque-pbsnodes-x.xml")).nodes();

    assertThat(nodes.keySet())
        .containsExactly("gpu-t01", "gpu-t02", "gpu-t03", "gpu-t04", "gpu-t05", "gpu-t06");

    SchedulerNode free = nodes.get("gpu-t01");
    assertThat(free.state()).isEqualTo(SchedulerState.AVAILABLE);
    assertThat(free.pools()).containsExactlyInAnyOrder("gpu", "k80");
    assertThat(free.jobs()).as("jobs= in the MoM's status is not the node's job list").isEmpty();

    assertThat(nodes.get("gpu-t02").jobs()).containsExactly("2121.torque-head", "2122.torque-head");

    SchedulerNode draining = nodes.get("gpu-t03");
    assertThat(draining.state()).isEqualTo(SchedulerState.DRAINING);
    assertThat(draining.schedulerState()).isEqualTo("offline,job-exclusive");
    assertThat(draining.reason()).isEqualTo("bulwark: <xid 79> on GPU 3 & row remap");
    assertThat(draining.jobs()).containsExactly("2130.torque-head", "2131.torque-head");

    SchedulerNode drained = nodes.get("gpu-t04");
    assertThat(drained.state()).isEqualTo(SchedulerState.DRAINED);
    assertThat(drained.reason()).isEqualTo("bulwark: xid 48 on GPU 0");
    assertThat(drained.pools()).isEmpty();

    assertThat(nodes.get("gpu-t05").state()).isEqualTo(SchedulerState.DOWN);
    assertThat(nodes.get("gpu-t06").state()).isEqualTo(SchedulerState.DOWN);
  }

  @Test
  void refusesWhatIsNotAListing() {
    assertThatThrownBy(() -> TorqueNodesXml.parse(""))
        .isInstanceOf(PbsOutputException.class)
        .hasMessageStartingWith("it printed something that is not XML");
    assertThatThrownBy(() -> TorqueNodesXml.parse("pbsnodes: Unknown node "))
        .isInstanceOf(PbsOutputException.class)
        .hasMessageStartingWith("it printed something that is not XML");
    assertThatThrownBy(() -> TorqueNodesXml.parse("<Data><Node><name>n1</name>"))
        .isInstanceOf(PbsOutputException.class)
        .hasMessageStartingWith("it printed something that is not XML");
    assertThatThrownBy(() -> TorqueNodesXml.parse("<html><body>503</body></html>"))
        .isInstanceOf(PbsOutputException.class)
        .hasMessage("its XML is a <html> element, not pbsnodes' <Data>");
    assertThatThrownBy(() -> TorqueNodesXml.parse("<Data><Job><name>1</name></Job></Data>"))
        .isInstanceOf(PbsOutputException.class)
        .hasMessage("its <Data> holds a <Job> element, not only <Node>s");
    assertThatThrownBy(() -> TorqueNodesXml.parse("<Data><Node><state>free</state></Node></Data>"))
        .isInstanceOf(PbsOutputException.class)
        .hasMessage("it lists a <Node> without a <name>");
  }

  @Test
  void neitherReadsExternalEntitiesNorExpandsDeclaredOnes() throws Exception {
    Path secret = Files.writeString(folder.resolve("secret"), "s3cr3t-token");
    String external =
        "<?xml version=\"1.0\"?><!DOCTYPE Data [<!ENTITY x SYSTEM \""
            + secret.toUri()
            + "\">]><Data><Node><name>n1</name><note>&x;</note></Node></Data>";
    String bomb =
        "<?xml version=\"1.0\"?><!DOCTYPE Data [<!ENTITY a \"aaaaaaaaaa\"><!ENTITY b"
            + " \"&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;\">]><Data><Node><name>&b;</name></Node></Data>";

    assertThatThrownBy(() -> TorqueNodesXml.parse(external))
        .isInstanceOf(PbsOutputException.class)
        .hasMessageContaining("DOCTYPE")
        .hasMessageNotContaining("s3cr3t-token");
    assertThatThrownBy(() -> TorqueNodesXml.parse(bomb))
        .isInstanceOf(PbsOutputException.class)
        .hasMessageContaining("DOCTYPE");
  }
}
