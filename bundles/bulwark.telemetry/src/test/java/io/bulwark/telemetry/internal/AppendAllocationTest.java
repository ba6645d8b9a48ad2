package io.bulwark.telemetry.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.bulwark.api.fleet.NodeId;
import io.bulwark.api.telemetry.SeriesId;
import java.lang.management.ManagementFactory;
import org.junit.jupiter.api.Test;

class AppendAllocationTest {
  private static final int APPENDS = 1_000_000;
  private static final int GPUS = 8;
  private static final int FIELDS = 30;

  @Test
  void appendingWithRollupsAllocatesNothingPerSample() {
    com.sun.management.ThreadMXBean threads =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    SeriesStore store = new SeriesStore(600, 360);
    NodeSeries node = store.node(NodeId.of("gpu-node-001"));
    String[] metrics = new String[FIELDS];
    for (int f = 0; f < FIELDS; f++) {
      metrics[f] = "DCGM_FI_FIELD_" + f;
      for (int gpu = 0; gpu < GPUS; gpu++) {
        node.ringForWriting(metrics[f], gpu);
      }
    }
    long[] clock = {1_767_225_600_000L};
    // Past the rings' growth to their full 600 samples: the steady state is what is measured.
    int warmUp = GPUS * FIELDS * 600 + 20_000;
    appendScrapes(node, metrics, clock, warmUp);
    threads.getCurrentThreadAllocatedBytes();

    long before = threads.getCurrentThreadAllocatedBytes();
    long started = System.nanoTime();
    long filed = appendScrapes(node, metrics, clock, APPENDS);
    long nanos = System.nanoTime() - started;
    long allocated = threads.getCurrentThreadAllocatedBytes() - before;

    assertThat(filed).isEqualTo(APPENDS);
    assertThat(allocated)
        .as("bytes allocated by %d appends across %d minutes", APPENDS, APPENDS / 240 / 60)
        .isLessThan(16 * 1024);
    int closedMinutes = (warmUp + APPENDS) / (GPUS * FIELDS) / 60;
    assertThat(store.rollup(SeriesId.of(node.id(), 3, metrics[7]), 0)).hasSize(closedMinutes);
    System.out.printf(
        "%d appends with minute roll-ups: %d bytes allocated, %.1f M appends/s%n",
        APPENDS, allocated, APPENDS * 1e3 / nanos);
  }

  private static long appendScrapes(NodeSeries node, String[] metrics, long[] clock, int samples) {
    long filed = 0;
    for (int i = 0; i < samples; i++) {
      int series = i % (GPUS * FIELDS);
      if (series == 0) {
        clock[0] += 1000;
      }
      if (node.ringForWriting(metrics[series % FIELDS], series / FIELDS)
          .append(clock[0], series + (clock[0] & 1023))) {
        filed++;
      }
    }
    return filed;
  }
}
