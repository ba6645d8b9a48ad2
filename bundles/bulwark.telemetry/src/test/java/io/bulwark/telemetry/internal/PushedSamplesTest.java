package io.bulwark.telemetry.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.groups.Tuple.tuple;

import io.bulwark.api.fleet.Gpu;
import io.bulwark.api.fleet.NodeId;
import io.bulwark.api.telemetry.DcgmField;
import io.bulwark.api.telemetry.IngestReceipt;
import io.bulwark.api.telemetry.MinuteRollup;
import io.bulwark.api.telemetry.Reading;
import io.bulwark.api.telemetry.SeriesId;
import io.bulwark.api.telemetry.TelemetryBatch;
import io.bulwark.api.telemetry.TelemetryIngest;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Readings pushed by other bundles land in the same series as scraped ones: the window, the latest
 * sample, the metric list and the minute roll-ups show them; a source that reports the node's GPUs
 * lists the node as a scrape does, one that only adds readings does not; what the series or the
 * limits refuse is counted, never half-filed.
 */
class PushedSamplesTest {
  private static final NodeId NODE = NodeId.of("dgx-a07");
  private static final long T0 = 1_764_496_800_000L; // a whole minute
  private final SeriesStore store = new SeriesStore(600, 60, new SeriesBudget(100));
  private final PushedSamples ingest = new PushedSamples(store, () -> T0);

  @Test
  void pushedReadingsAreReadLikeScrapedOnesWithTheirRollups() {
    List<Reading> readings = new ArrayList<>();
    for (int s = 0; s < 180; s += 5) {
      readings.add(Reading.ofNode("BMC_INLET_TEMP_C", T0 + s * 1000L, 20 + s / 60));
    }
    IngestReceipt receipt = ingest.push(TelemetryBatch.readings("bmc", NODE, T0, readings));

    assertThat(receipt).isEqualTo(new IngestReceipt(36, 0, 0));
    SeriesId inlet = SeriesId.of(NODE, SeriesId.NODE_LEVEL, "BMC_INLET_TEMP_C");
    assertThat(store.window(inlet, T0).size()).isEqualTo(36);
    assertThat(store.latest(inlet).value()).isEqualTo(22.0);
    assertThat(store.metrics(NODE)).containsExactly("BMC_INLET_TEMP_C");
    List<MinuteRollup> minutes = store.rollup(inlet, 0);
    assertThat(minutes)
        .as("two closed minutes; the third is still being filled")
        .extracting(MinuteRollup::minuteMillis, MinuteRollup::avg, MinuteRollup::count)
        .containsExactly(tuple(T0, 20.0, 12), tuple(T0 + 60_000, 21.0, 12));
    assertThat(store.nodes()).as("a source of readings alone does not list the node").isEmpty();
  }

  @Test
  void aSourceThatReportsTheGpusListsTheNodeAsAScrapeDoes() {
    List<Gpu> gpus = List.of(new Gpu(0, "GPU-0a", "H100"), new Gpu(1, "GPU-1b", "H100"));
    ingest.push(
        new TelemetryBatch(
            "agent", NODE, T0, gpus, List.of(new Reading(1, DcgmField.GPU_TEMP, T0, 61))));

    assertThat(store.nodes()).containsExactly(NODE);
    assertThat(store.reportedGpus(NODE)).isEqualTo(gpus);
    assertThat(store.lastScrapeMillis(NODE)).hasValue(T0);
    assertThat(store.latest(SeriesId.of(NODE, 1, DcgmField.GPU_TEMP)).value()).isEqualTo(61);
  }

  @Test
  void readingsNotNewerThanTheirSeriesAreCountedNotFiled() {
    SeriesId power = SeriesId.of(NODE, 0, DcgmField.POWER_USAGE);
    store.append(power, T0 + 5000, 300); // a scrape filed this one
    IngestReceipt receipt =
        ingest.push(
            TelemetryBatch.readings(
                "bmc",
                NODE,
                T0,
                List.of(
                    new Reading(0, DcgmField.POWER_USAGE, T0 + 1000, 250),
                    new Reading(0, DcgmField.POWER_USAGE, T0 + 5000, 251),
                    new Reading(0, DcgmField.POWER_USAGE, T0 + 6000, 305))));

    assertThat(receipt).isEqualTo(new IngestReceipt(1, 2, 0));
    assertThat(receipt.complete()).isFalse();
    assertThat(store.window(power, 0).values()).containsExactly(300, 305);
  }

  @Test
  void aBatchStartsNoSeriesBeyondTheBudgetOrThePerBatchLimit() {
    List<Reading> many = new ArrayList<>();
    for (int i = 0; i < 150; i++) {
      many.add(Reading.ofNode("SENSOR_" + i, T0, i));
    }
    IngestReceipt overBudget = ingest.push(TelemetryBatch.readings("bmc", NODE, T0, many));
    assertThat(overBudget).isEqualTo(new IngestReceipt(100, 0, 50));
    assertThat(store.budget().used()).isEqualTo(100);

    SeriesStore roomy = new SeriesStore(10, 0);
    List<Reading> wide = new ArrayList<>();
    for (int i = 0; i < TelemetryIngest.MAX_NEW_SERIES_PER_BATCH + 10; i++) {
      wide.add(Reading.ofNode("S" + i, T0, i));
    }
    IngestReceipt tooWide =
        new PushedSamples(roomy, () -> T0).push(TelemetryBatch.readings("rack", NODE, T0, wide));
    assertThat(tooWide.overLimits()).isEqualTo(10);
    IngestReceipt next =
        new PushedSamples(roomy, () -> T0)
            .push(TelemetryBatch.readings("rack", NODE, T0, wide.subList(4090, wide.size())));
    assertThat(next.accepted()).as("the next batch may start them").isEqualTo(10);
  }

  @Test
  void badReadingsAndBatchesAreRefusedWithWhatIsWrong() {
    assertThatThrownBy(() -> Reading.ofNode("inlet temp", T0, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'inlet temp'");
    assertThatThrownBy(() -> new Reading(-2, "X", T0, 1)).hasMessageContaining("NODE_LEVEL");
    assertThatThrownBy(() -> Reading.ofNode("x".repeat(300), T0, 1))
        .hasMessageContaining("at most 256");
    assertThatThrownBy(() -> TelemetryBatch.readings("BMC!", NODE, T0, List.of()))
        .hasMessageContaining("'BMC!'");
    List<Reading> huge =
        Collections.nCopies(TelemetryBatch.MAX_READINGS + 1, Reading.ofNode("X", T0, 1));
    assertThatThrownBy(() -> TelemetryBatch.readings("bmc", NODE, T0, huge))
        .hasMessageContaining("dgx-a07")
        .hasMessageContaining("batches of at most 100000");
  }
}
