package io.bulwark.agent.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class AgentPageTest {

  @Test
  void printsDecimalFieldsWithSixDecimalsAndEscapesLabels() {
    GpuReading gpu = new GpuReading(3);
    gpu.uuid = "GPU-x";
    gpu.model = "Model \"Q\"";
    gpu.set(AgentMetric.POWER_USAGE, 71.0005);
    gpu.set(AgentMetric.GPU_TEMP, 40);

    String page =
        AgentPage.render(new NodeReading(true, "", "", List.of(gpu), List.of()), "node\\1");

    assertThat(page)
        .contains(
            "DCGM_FI_DEV_POWER_USAGE{gpu=\"3\",UUID=\"GPU-x\",pci_bus_id=\"\",device=\"nvidia3\","
                + "modelName=\"Model \\\"Q\\\"\",Hostname=\"node\\\\1\"} 71.000500\n")
        .contains("} 40\n")
        .contains("bulwark_nvml_up{Hostname=\"node\\\\1\"} 1\n")
        .doesNotContain("DCGM_FI_DEV_SM_CLOCK");
  }

  @Test
  void aDownNodeHasOnlyItsStatus() {
    String page = AgentPage.render(NodeReading.down("no library", List.of()), "n1");

    assertThat(page.lines().filter(l -> !l.startsWith("#")))
        .containsExactly("bulwark_nvml_up{Hostname=\"n1\"} 0");
  }
}
