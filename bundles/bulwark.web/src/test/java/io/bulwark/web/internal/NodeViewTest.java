package io.bulwark.web.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.bulwark.api.health.Finding;
import io.bulwark.api.health.Severity;
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
}
