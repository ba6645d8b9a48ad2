package io.bulwark.web.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.bulwark.api.health.Finding;
import io.bulwark.api.health.Severity;
import io.bulwark.api.telemetry.Rollup;
import io.bulwark.api.telemetry.SampleWindow;
import io.vertx.core.json.JsonArray;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * How GPU health is judged for the grid and how long telemetry windows are thinned for the charts.
 */
class NodeViewTest {
  private final FleetFixture fixture = new FleetFixture();

  @Test
  void missingWinsOverFindingsAndCriticalOverWarning() {
    List<Finding> both = List.of(fixture.thermal, fixture.xid);

    assertThat(GpuHealth.of(true, false, both)).isEqualTo(GpuHealth.MISSING);
    assertThat(GpuHealth.of(false, true, List.of())).isEqualTo(GpuHealth.UNKNOWN);
    assertThat(GpuHealth.of(false, false, both)).isEqualTo(GpuHealth.UNKNOWN);
    assertThat(GpuHealth.of(true, true, both)).isEqualTo(GpuHealth.CRITICAL);
    assertThat(GpuHealth.of(true, true, List.of(fixture.thermal))).isEqualTo(GpuHealth.WARNING);
    assertThat(GpuHealth.of(true, true, List.of())).isEqualTo(GpuHealth.HEALTHY);
    assertThat(GpuHealth.worst(both)).isEqualTo(Severity.CRITICAL);
    assertThat(GpuHealth.worst(List.of())).isNull();
  }

  @Test
  void shortWindowsPassThroughUnchanged() {
    SampleWindow window =
        SampleWindow.wrap(new long[] {1, 2, 3}, new double[] {5, Double.NaN, 7}, 3);

    JsonArray points = NodesResource.points(window);

    assertThat(points.encode()).isEqualTo("[[1,5.0],[3,7.0]]");
  }

  @Test
  void longWindowsAreAveragedIntoBoundedBuckets() {
    int n = 1_500;
    long[] t = new long[n];
    double[] v = new double[n];
    for (int i = 0; i < n; i++) {
      t[i] = 1_000L * i;
      v[i] = i;
    }

    JsonArray points = NodesResource.points(SampleWindow.wrap(t, v, n));

    assertThat(points.size()).isLessThanOrEqualTo(NodesResource.MAX_POINTS).isEqualTo(500);
    assertThat(points.getJsonArray(0).getLong(0)).isEqualTo(2_000L);
    assertThat(points.getJsonArray(0).getDouble(1)).isEqualTo(1.0);
    assertThat(points.getJsonArray(499).getLong(0)).isEqualTo(1_499_000L);
    assertThat(points.getJsonArray(499).getDouble(1)).isEqualTo(1498.0);
  }

  @Test
  void aLongWindowReadsTheMinutesBeforeTheRawSamplesThenTheSamples() {
    long t0 = 1_800_000_000_000L;
    List<Rollup> minutes = new java.util.ArrayList<>();
    for (int m = 0; m < 120; m++) {
      minutes.add(new Rollup(t0 + m * 60_000L, 60_000, 40, 50 + m % 2, 60, 60));
    }
    // The raw ring starts in minute 110: the roll-ups of minutes 110 on are not used twice.
    long rawStart = t0 + 110 * 60_000L;
    long[] ts = new long[600];
    double[] vs = new double[600];
    for (int i = 0; i < 600; i++) {
      ts[i] = rawStart + i * 1000L;
      vs[i] = 70;
    }
    long to = ts[599];
    JsonArray points = NodesResource.withHistory(minutes, SampleWindow.wrap(ts, vs, 600), t0, to);
    assertThat(points.size()).isLessThanOrEqualTo(NodesResource.MAX_POINTS);
    assertThat(points.getJsonArray(0).getLong(0)).isLessThan(rawStart);
    assertThat(points.getJsonArray(0).getDouble(1)).isBetween(50.0, 51.0);
    JsonArray last = points.getJsonArray(points.size() - 1);
    assertThat(last.getLong(0)).isEqualTo(ts[599]);
    assertThat(last.getDouble(1)).isEqualTo(70.0);
    for (int i = 1; i < points.size(); i++) {
      assertThat(points.getJsonArray(i).getLong(0))
          .isGreaterThan(points.getJsonArray(i - 1).getLong(0));
    }
    assertThat(NodesResource.withHistory(List.of(), SampleWindow.empty(), t0, to)).isEmpty();
  }

  @Test
  void aWeekOfTenMinuteBucketsThenMinutesIsAveragedByTimeWeightedBySamples() {
    long week = 7 * 24 * 3_600_000L;
    long to = 1_800_000_000_000L;
    long from = to - week;
    List<Rollup> history = new java.util.ArrayList<>();
    // Ten-minute buckets of 600 samples at 30, except the last day's, which hold 60 samples at 90.
    for (long t = from; t < to - 3_600_000L; t += 600_000L) {
      boolean lastDay = t >= to - 24 * 3_600_000L;
      history.add(new Rollup(t, 600_000, 0, lastDay ? 90 : 30, 100, lastDay ? 60 : 600));
    }
    // Then the last hour in minutes.
    for (long t = to - 3_600_000L; t < to; t += 60_000L) {
      history.add(new Rollup(t, 60_000, 0, 50, 100, 60));
    }
    JsonArray points = NodesResource.withHistory(history, SampleWindow.empty(), from, to);
    assertThat(points.size()).isLessThanOrEqualTo(NodesResource.MAX_POINTS).isGreaterThan(500);
    assertThat(points.getJsonArray(0).getDouble(1)).isEqualTo(30.0);
    assertThat(points.getJsonArray(points.size() - 1).getDouble(1)).isEqualTo(50.0);
    assertThat(points.getJsonArray(points.size() - 1).getLong(0)).isEqualTo(to);
    long width = week / NodesResource.MAX_POINTS;
    for (int i = 1; i < points.size(); i++) {
      long gap = points.getJsonArray(i).getLong(0) - points.getJsonArray(i - 1).getLong(0);
      assertThat(gap).as("points about one bucket apart").isBetween(1L, 2 * width + 600_000L);
    }
  }
}
