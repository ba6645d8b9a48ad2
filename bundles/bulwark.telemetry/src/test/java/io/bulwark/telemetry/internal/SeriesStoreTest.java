package io.bulwark.telemetry.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.bulwark.api.fleet.Gpu;
import io.bulwark.api.fleet.NodeId;
import io.bulwark.api.telemetry.SeriesId;
import java.util.List;
import org.junit.jupiter.api.Test;

class SeriesStoreTest {
  private static final NodeId NODE = NodeId.of("gpu-node-001");
  private final SeriesStore store = new SeriesStore(10);

  @Test
  void answersNothingForUnknownNodesAndSeries() {
    NodeId unknown = NodeId.of("nowhere");

    assertThat(store.nodes()).isEmpty();
    assertThat(store.reportedGpus(unknown)).isEmpty();
    assertThat(store.lastScrapeMillis(unknown)).isEmpty();
    assertThat(store.metrics(unknown)).isEmpty();
    assertThat(store.window(SeriesId.of(unknown, 0, "m"), 0).isEmpty()).isTrue();
    assertThat(store.latest(SeriesId.of(unknown, 0, "m"))).isNull();
  }

  @Test
  void keepsSeriesPerGpuAndNodeLevelApart() {
    store.append(SeriesId.of(NODE, 0, "m"), 1, 10);
    store.append(SeriesId.of(NODE, 3, "m"), 1, 13);
    store.append(SeriesId.of(NODE, SeriesId.NODE_LEVEL, "m"), 1, 99);
    store.append(SeriesId.of(NODE, 3, "m"), 2, 14);

    assertThat(store.window(SeriesId.of(NODE, 3, "m"), 0).values()).containsExactly(13, 14);
    assertThat(store.latest(SeriesId.of(NODE, 0, "m")).value()).isEqualTo(10);
    assertThat(store.latest(SeriesId.of(NODE, SeriesId.NODE_LEVEL, "m")).value()).isEqualTo(99);
    assertThat(store.latest(SeriesId.of(NODE, 1, "m"))).isNull();
    assertThat(store.latest(SeriesId.of(NODE, 7, "m"))).isNull();
    assertThat(store.metrics(NODE)).containsExactly("m");
  }

  @Test
  void keepsTheRetentionPerSeries() {
    for (int t = 1; t <= 25; t++) {
      store.append(SeriesId.of(NODE, 0, "m"), t, t);
    }

    assertThat(store.window(SeriesId.of(NODE, 0, "m"), 0).timestamps())
        .containsExactly(16, 17, 18, 19, 20, 21, 22, 23, 24, 25);
    assertThat(store.window(SeriesId.of(NODE, 0, "m"), 23).values()).containsExactly(23, 24, 25);
  }

  @Test
  void recordsReportedGpusSortedAndTheLatestScrape() {
    store.recordScrape(
        NODE, List.of(new Gpu(2, "GPU-c", "H100"), new Gpu(0, "GPU-a", "H100")), 5_000);
    store.recordScrape(
        NODE, List.of(new Gpu(1, "GPU-b", "H100"), new Gpu(0, "GPU-a", "H100")), 6_000);

    assertThat(store.reportedGpus(NODE)).extracting(Gpu::index).containsExactly(0, 1);
    assertThat(store.lastScrapeMillis(NODE)).hasValue(6_000);
    assertThat(store.nodes()).containsExactly(NODE);
    assertThat(store.metrics(NODE)).isEmpty();
  }
}
