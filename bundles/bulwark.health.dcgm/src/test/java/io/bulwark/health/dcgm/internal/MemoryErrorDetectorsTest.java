package io.bulwark.health.dcgm.internal;

import static io.bulwark.health.dcgm.internal.SimulatedFleet.node;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bulwark.api.fleet.NodeId;
import io.bulwark.api.health.Severity;
import io.bulwark.api.telemetry.DcgmField;
import io.bulwark.testing.TypedConfig;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MemoryErrorDetectorsTest {
  private final SimulatedFleet fleet = new SimulatedFleet(2, 8, "H100");
  private final EccDetector ecc = new EccDetector(new WindowOptions(15));
  private final RowRemapDetector rowRemap = new RowRemapDetector(new WindowOptions(15));

  private void set(int node, int gpu, String metric, double value, long fromSecond) {
    NodeId target = node(node);
    fleet.with(
        (n, g, m, s, sound) ->
            n.equals(target) && g == gpu && m.equals(metric) && s >= fromSecond ? value : null);
  }

  @Test
  void double_bit_ecc_errors_since_the_driver_loaded_are_critical() {
    set(0, 2, DcgmField.ECC_DBE_VOL_TOTAL, 3, 4);
    fleet.run(5);

    assertThat(ecc.evaluate(fleet.context()))
        .singleElement()
        .satisfies(
            c -> {
              assertThat(c.kind()).isEqualTo("ecc-dbe");
              assertThat(c.gpu()).isEqualTo(2);
              assertThat(c.severity()).isEqualTo(Severity.CRITICAL);
              assertThat(c.evidence())
                  .containsEntry("metric", DcgmField.ECC_DBE_VOL_TOTAL)
                  .containsEntry("volatileErrors", "3")
                  .containsEntry("window", "last 15 s")
                  .containsKey("threshold");
              assertThat(c.recommendedAction())
                  .contains("Drain gpu-node-000")
                  .contains("dcgmi diag -r 3");
            });
    assertThat(rowRemap.evaluate(fleet.context())).isEmpty();
  }

  @Test
  void a_rising_aggregate_counter_is_critical_even_without_the_volatile_counter() {
    NodeId target = node(1);
    fleet.with(
        (n, g, m, s, sound) ->
            n.equals(target) && g == 7 && m.equals(DcgmField.ECC_DBE_AGG_TOTAL)
                ? (s < 6 ? 10.0 : 11.0)
                : null);
    fleet.with((n, g, m, s, sound) -> m.equals(DcgmField.ECC_DBE_VOL_TOTAL) ? Double.NaN : null);
    fleet.run(8);

    assertThat(ecc.evaluate(fleet.context()))
        .singleElement()
        .satisfies(
            c -> {
              assertThat(c.gpu()).isEqualTo(7);
              assertThat(c.evidence())
                  .containsEntry("aggregateRise", "1")
                  .containsEntry("metric", DcgmField.ECC_DBE_AGG_TOTAL);
            });
  }

  @Test
  void a_flat_aggregate_counter_and_zero_volatile_errors_raise_nothing() {
    fleet.with((n, g, m, s, sound) -> m.equals(DcgmField.ECC_DBE_AGG_TOTAL) ? 10.0 : null);
    fleet.run(20);

    assertThat(ecc.evaluate(fleet.context())).isEmpty();
  }

  @Test
  void an_error_count_older_than_the_window_does_not_count() {
    set(0, 1, DcgmField.ECC_DBE_VOL_TOTAL, 2, 0);
    fleet.run(3);
    fleet.with((n, g, m, s, sound) -> m.equals(DcgmField.ECC_DBE_VOL_TOTAL) ? Double.NaN : null);
    fleet.run(16);

    assertThat(ecc.evaluate(fleet.context())).isEmpty();
  }

  @Test
  void a_row_remap_failure_is_critical_and_tells_the_pending_remap() {
    set(1, 4, DcgmField.ROW_REMAP_FAILURE, 1, 2);
    set(1, 4, DcgmField.ROW_REMAP_PENDING, 1, 2);
    fleet.run(3);

    assertThat(rowRemap.evaluate(fleet.context()))
        .singleElement()
        .satisfies(
            c -> {
              assertThat(c.kind()).isEqualTo("row-remap-failure");
              assertThat(c.node()).isEqualTo(node(1));
              assertThat(c.gpu()).isEqualTo(4);
              assertThat(c.severity()).isEqualTo(Severity.CRITICAL);
              assertThat(c.evidence())
                  .containsEntry("remapPending", "1")
                  .containsEntry("threshold", "> 0");
              assertThat(c.recommendedAction()).contains("RMA GPU 4");
            });
    assertThat(ecc.evaluate(fleet.context())).isEmpty();
  }

  @Test
  void invalid_windows_name_the_property() {
    assertThatThrownBy(
            () ->
                new EccDetector(
                    TypedConfig.of(EccDetectorConfig.class, Map.of("windowSeconds", 0))))
        .hasMessageContaining("windowSeconds");
    assertThatThrownBy(
            () ->
                new RowRemapDetector(
                    TypedConfig.of(RowRemapDetectorConfig.class, Map.of("windowSeconds", 4000))))
        .hasMessageContaining("windowSeconds");
    assertThat(new EccDetector(TypedConfig.of(EccDetectorConfig.class, Map.of())).name())
        .isEqualTo("ecc-dbe");
  }
}
