package io.bulwark.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.bulwark.api.fleet.Gpu;
import io.bulwark.api.fleet.NodeId;
import io.bulwark.api.telemetry.SampleWindow;
import io.bulwark.api.telemetry.SeriesId;
import java.util.List;
import org.junit.jupiter.api.Test;

class InMemoryTelemetryTest {
  private static final NodeId NODE = NodeId.of("gpu-node-001");
  private final InMemoryTelemetry telemetry = new InMemoryTelemetry();

  @Test
  void keepsSamplesOldestFirstWhateverOrderTheyArrive() {
    telemetry.add(NODE, 0, "temp", 3_000, 63);
    telemetry.add(NODE, 0, "temp", 1_000, 61);
    telemetry.add(NODE, 0, "temp", 2_000, 62);

    SampleWindow window = telemetry.window(SeriesId.of(NODE, 0, "temp"), 2_000);

    assertThat(window.timestamps()).containsExactly(2_000, 3_000);
    assertThat(window.values()).containsExactly(62, 63);
    assertThat(telemetry.latest(SeriesId.of(NODE, 0, "temp")).value()).isEqualTo(63);
    assertThat(telemetry.metrics(NODE)).containsExactly("temp");
    assertThat(telemetry.window(SeriesId.of(NODE, 1, "temp"), 0).isEmpty()).isTrue();
  }

  @Test
  void reportsGpusSortedByIndexAndTheLastScrape() {
    telemetry.report(
        NODE, List.of(new Gpu(1, "GPU-b", "H100"), new Gpu(0, "GPU-a", "H100")), 5_000);
    telemetry.scrapedAt(NODE, 6_000);
    telemetry.report("gpu-node-000", 2, "H100", 7_000);

    assertThat(telemetry.reportedGpus(NODE)).extracting(Gpu::index).containsExactly(0, 1);
    assertThat(telemetry.lastScrapeMillis(NODE)).hasValue(6_000);
    assertThat(telemetry.nodes()).containsExactly(NodeId.of("gpu-node-000"), NODE);
    assertThat(telemetry.lastScrapeMillis(NodeId.of("gpu-node-009"))).isEmpty();
  }
}
