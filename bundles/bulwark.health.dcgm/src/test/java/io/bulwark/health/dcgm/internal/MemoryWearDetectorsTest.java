package io.bulwark.health.dcgm.internal;

import static io.bulwark.health.dcgm.internal.SimulatedFleet.node;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bulwark.api.fleet.NodeId;
import io.bulwark.api.health.Severity;
import io.bulwark.api.telemetry.DcgmField;
import io.bulwark.testing.TypedConfig;
import java.util.Map;
import java.util.function.LongToDoubleFunction;
import org.junit.jupiter.api.Test;

class MemoryWearDetectorsTest {
  private final SimulatedFleet fleet = new SimulatedFleet(2, 8, "H100");
  private final SbeRateDetector sbe =
      new SbeRateDetector(TypedConfig.of(SbeRateDetectorConfig.class, Map.of()));
  private final RetiredPagesDetector retired = new RetiredPagesDetector(new WindowOptions(15), 60);
  private final RowRemapPendingDetector pending =
      new RowRemapPendingDetector(new WindowOptions(15));
  private final RowRemapDetector rowRemap = new RowRemapDetector(new WindowOptions(15));

  private void series(int gpu, String metric, LongToDoubleFunction f) {
    NodeId target = node(0);
    fleet.with(
        (n, g, m, s, sound) ->
            n.equals(target) && g == gpu && m.equals(metric) ? f.applyAsDouble(s) : null);
  }

  @Test
  void a_healthy_fleet_with_a_few_old_corrected_errors_raises_nothing() {
    fleet.run(200);
    for (var d : java.util.List.of(sbe, retired, pending, rowRemap)) {
      assertThat(d.evaluate(fleet.context())).as(d.name()).isEmpty();
    }
  }

  @Test
  void corrected_errors_at_a_high_rate_are_a_warning_and_a_slow_trickle_is_not() {
    series(1, DcgmField.ECC_SBE_VOL_TOTAL, s -> 3 + s / 4);
    series(2, DcgmField.ECC_SBE_VOL_TOTAL, s -> 3 + s / 30);
    fleet.run(200);

    assertThat(sbe.evaluate(fleet.context()))
        .singleElement()
        .satisfies(
            c -> {
              assertThat(c.kind()).isEqualTo("ecc-sbe-rate");
              assertThat(c.gpu()).isEqualTo(1);
              assertThat(c.severity()).isEqualTo(Severity.WARNING);
              assertThat(c.performanceFactor()).isEqualTo(1.0);
              assertThat(c.evidence())
                  .containsEntry("metric", DcgmField.ECC_SBE_VOL_TOTAL)
                  .containsEntry("window", "last 600 s")
                  .containsKey("rise");
            });
  }

  @Test
  void a_gpu_reset_clearing_the_volatile_counter_is_not_a_rate() {
    series(3, DcgmField.ECC_SBE_VOL_TOTAL, s -> s < 100 ? 5000 : 1);
    fleet.run(200);

    assertThat(sbe.evaluate(fleet.context())).isEmpty();
  }

  @Test
  void pending_page_retirement_is_a_warning_that_names_the_rma_limit_when_reached() {
    series(4, DcgmField.RETIRED_PENDING, s -> s >= 5 ? 1 : 0);
    series(4, DcgmField.RETIRED_DBE, s -> 58);
    series(4, DcgmField.RETIRED_SBE, s -> 4);
    series(5, DcgmField.RETIRED_PENDING, s -> s >= 5 ? 1 : 0);
    fleet.run(10);

    assertThat(retired.evaluate(fleet.context()))
        .hasSize(2)
        .allSatisfy(c -> assertThat(c.severity()).isEqualTo(Severity.WARNING))
        .anySatisfy(
            c -> {
              assertThat(c.gpu()).isEqualTo(4);
              assertThat(c.evidence()).containsEntry("retiredPages", "62");
              assertThat(c.recommendedAction()).contains("plan its RMA");
            })
        .anySatisfy(
            c -> {
              assertThat(c.gpu()).isEqualTo(5);
              assertThat(c.recommendedAction()).doesNotContain("RMA");
            });
  }

  @Test
  void a_pending_row_remap_is_a_warning_that_clears_after_the_reset() {
    series(6, DcgmField.ROW_REMAP_PENDING, s -> s >= 2 && s < 20 ? 1 : 0);
    fleet.run(10);
    assertThat(pending.evaluate(fleet.context()))
        .singleElement()
        .satisfies(
            c -> {
              assertThat(c.kind()).isEqualTo("row-remap-pending");
              assertThat(c.severity()).isEqualTo(Severity.WARNING);
              assertThat(c.recommendedAction()).contains("reset GPU 6");
            });
    assertThat(rowRemap.evaluate(fleet.context())).isEmpty();

    fleet.run(15);
    assertThat(pending.evaluate(fleet.context())).isEmpty();
  }

  @Test
  void banks_out_of_spare_rows_are_a_warning_and_a_failed_remap_stays_critical() {
    series(0, DcgmField.BANKS_REMAP_ROWS_AVAIL_NONE, s -> 1);
    series(1, DcgmField.BANKS_REMAP_ROWS_AVAIL_LOW, s -> 3);
    series(1, DcgmField.ROW_REMAP_FAILURE, s -> 1);
    fleet.run(5);

    assertThat(rowRemap.evaluate(fleet.context()))
        .hasSize(2)
        .anySatisfy(
            c -> {
              assertThat(c.gpu()).isZero();
              assertThat(c.severity()).isEqualTo(Severity.WARNING);
              assertThat(c.summary()).contains("1 memory bank(s) without a spare row");
              assertThat(c.recommendedAction()).startsWith("Plan the replacement");
            })
        .anySatisfy(
            c -> {
              assertThat(c.gpu()).isEqualTo(1);
              assertThat(c.severity()).isEqualTo(Severity.CRITICAL);
              assertThat(c.evidence()).containsEntry("banksWithFewSpareRows", "3");
            });
  }

  @Test
  void invalid_values_name_the_property() {
    assertThatThrownBy(
            () ->
                new SbeRateDetector(
                    TypedConfig.of(SbeRateDetectorConfig.class, Map.of("windowSeconds", 1))))
        .hasMessageContaining("windowSeconds");
    assertThatThrownBy(
            () ->
                new RetiredPagesDetector(
                    TypedConfig.of(
                        RetiredPagesDetectorConfig.class, Map.of("retiredPagesLimit", 0))))
        .hasMessageContaining("retiredPagesLimit");
  }
}
