package io.bulwark.telemetry.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.bulwark.api.fleet.NodeId;
import io.bulwark.api.telemetry.ScrapeTarget;
import java.util.Map;
import org.junit.jupiter.api.Test;

class NodeNamingTest {

  @Test
  void prefersTheNodeLabelOverTheAddress() {
    assertThat(
            NodeNaming.forTarget(
                new ScrapeTarget("10.0.0.5:9400", null, null, Map.of("node", "gpu-node-005"))))
        .isEqualTo(NodeId.of("gpu-node-005"));
    assertThat(NodeNaming.forTarget(new ScrapeTarget("10.0.0.5:9400", null, null, Map.of())))
        .isEqualTo(NodeId.of("10.0.0.5"));
  }

  @Test
  void prefersTheHostnameLabelOverTheTarget() {
    ScrapeTarget target = new ScrapeTarget("10.0.0.5:9400", null, null, Map.of("node", "n5"));

    assertThat(NodeNaming.forHostname("gpu-node-005.cluster", target))
        .isEqualTo(NodeId.of("gpu-node-005.cluster"));
    assertThat(NodeNaming.forHostname("  ", target)).isEqualTo(NodeId.of("n5"));
    assertThat(NodeNaming.forHostname(null, target)).isEqualTo(NodeId.of("n5"));
  }

  @Test
  void takesTheHostOfEveryAddressForm() {
    assertThat(NodeNaming.host("gpu-node-1:9400")).isEqualTo("gpu-node-1");
    assertThat(NodeNaming.host("gpu-node-1")).isEqualTo("gpu-node-1");
    assertThat(NodeNaming.host("[fd00::5]:9400")).isEqualTo("fd00::5");
    assertThat(NodeNaming.host("fd00::5")).isEqualTo("fd00::5");
  }

  @Test
  void makesAnyNameAValidNodeId() {
    assertThat(NodeNaming.fromName("gpu node #7")).isEqualTo(NodeId.of("gpu-node--7"));
    assertThat(NodeNaming.fromName("::1")).isEqualTo(NodeId.of("node-::1"));
    assertThat(NodeNaming.fromName("nœud")).isEqualTo(NodeId.of("n-ud"));
    assertThat(NodeNaming.fromName("a".repeat(300)).value()).hasSize(253);
    assertThat(NodeNaming.forTarget(new ScrapeTarget("[::1]:9400", null, null, Map.of())))
        .isEqualTo(NodeId.of("node-::1"));
    assertThat(NodeNaming.fromName("")).isNull();
  }
}
