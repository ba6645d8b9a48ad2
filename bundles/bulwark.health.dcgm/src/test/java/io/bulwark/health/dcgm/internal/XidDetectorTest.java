package io.bulwark.health.dcgm.internal;

import static io.bulwark.health.dcgm.internal.SimulatedFleet.node;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bulwark.api.fleet.NodeId;
import io.bulwark.api.health.Condition;
import io.bulwark.api.health.Severity;
import io.bulwark.api.telemetry.DcgmField;
import io.bulwark.testing.TypedConfig;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class XidDetectorTest {
  private final SimulatedFleet fleet = new SimulatedFleet(2, 8, "H100");
  private final XidDetector detector = new XidDetector(XidOptions.defaults());

  /**
   * GPU {@code gpu} of gpu-node-001 reports {@code code} from second {@code from} to second {@code
   * to}.
   */
  private void xid(int gpu, int code, long from, long to) {
    NodeId target = node(1);
    fleet.with(
        (n, g, metric, s, sound) ->
            n.equals(target)
                    && g == gpu
                    && metric.equals(DcgmField.XID_ERRORS)
                    && s >= from
                    && s <= to
                ? (double) code
                : null);
  }

  @Test
  void a_hardware_xid_marks_the_gpu_critical_with_its_meaning_and_an_operator_action() {
    xid(3, 79, 5, 5);
    fleet.run(6);

    assertThat(detector.evaluate(fleet.context()))
        .singleElement()
        .satisfies(
            c -> {
              assertThat(c.kind()).isEqualTo("xid");
              assertThat(c.node()).isEqualTo(node(1));
              assertThat(c.gpu()).isEqualTo(3);
              assertThat(c.severity()).isEqualTo(Severity.CRITICAL);
              assertThat(c.evidence())
                  .containsEntry("code", "79")
                  .containsEntry("class", "reboot node")
                  .containsEntry("resolution", "REBOOT_NODE")
                  .containsEntry("metric", DcgmField.XID_ERRORS)
                  .containsEntry("window", "last 30 s")
                  .containsKeys("values", "threshold");
              assertThat(c.evidence().get("meaning")).contains("fallen off the bus");
              assertThat(c.recommendedAction()).contains("gpu-node-001").contains("GPU 3");
            });
  }

  /** The conditions the detector raises for GPU 0 of a one-node fleet showing {@code code}. */
  private static List<Condition> verdict(XidDetector detector, int code) {
    SimulatedFleet f = new SimulatedFleet(1, 8, "H100");
    f.with(
        (n, g, metric, s, sound) ->
            g == 0 && metric.equals(DcgmField.XID_ERRORS) ? (double) code : null);
    f.run(2);
    return detector.evaluate(f.context());
  }

  @Test
  void every_code_of_nvidias_catalogue_gets_the_verdict_of_its_bucket() {
    XidDetector recording =
        new XidDetector(
            TypedConfig.of(XidDetectorConfig.class, Map.of("recordApplicationXids", true)));
    for (XidCatalog.Entry e : XidCatalog.entries()) {
      List<Condition> plain = verdict(detector, e.code());
      List<Condition> recorded = verdict(recording, e.code());
      String what = "XID " + e.code() + " (" + e.bucket() + ")";
      switch (e.bucket()) {
        case RESTART_BM,
            RESTART_VM,
            RESET_GPU,
            WORKFLOW_NVLINK5_ERR,
            WORKFLOW_NVLINK_ERR,
            WORKFLOW_XID_48 -> {
          // NVIDIA's restart, reset and reset-workflow buckets: the GPU does not serve until then.
          assertThat(plain)
              .as(what)
              .singleElement()
              .satisfies(
                  c -> {
                    assertThat(c.severity()).isEqualTo(Severity.CRITICAL);
                    assertThat(c.evidence())
                        .containsEntry("nvidiaAction", e.bucket().name())
                        .containsEntry("nvidiaFatal", "true");
                    assertThat(c.evidence().get("meaning")).doesNotContain("not in");
                  });
        }
        case UNEXPECTED_ERR_REPORT_ISSUE,
            UPDATE_SWFW,
            CHECK_MECHANICALS,
            CHECK_UVM,
            FOLLOW_OTHER_XID -> {
          // The GPU still serves; a person acts on it.
          assertThat(plain)
              .as(what)
              .singleElement()
              .satisfies(
                  c -> {
                    assertThat(c.severity()).isEqualTo(Severity.WARNING);
                    assertThat(c.evidence()).containsEntry("class", "service GPU");
                    assertThat(c.recommendedAction()).contains("keeps serving");
                  });
        }
        case RESTART_APP, WORKFLOW_XID_45 -> {
          // The application's codes: no finding on the GPU, information when recorded.
          assertThat(plain).as(what).isEmpty();
          assertThat(recorded)
              .as(what + ", recorded")
              .singleElement()
              .satisfies(c -> assertThat(c.severity()).isEqualTo(Severity.INFO));
        }
        case IGNORE -> {
          assertThat(plain).as(what).isEmpty();
          if (!List.of(13, 31, 43, 45).contains(e.code())) {
            assertThat(recorded).as(what + ", recorded").isEmpty();
          }
        }
      }
    }
  }

  @Test
  void the_codes_nvidia_resets_or_restarts_for_are_critical_and_those_it_does_not_are_not() {
    // NVIDIA's reset and restart buckets (Bulwark once ranked 109 as "restart the application"
    // and did not know the others).
    for (int code : List.of(46, 109, 136, 155, 156, 158, 160, 162, 79, 48, 74, 119, 143, 151)) {
      assertThat(verdict(detector, code))
          .as("XID %d", code)
          .singleElement()
          .satisfies(c -> assertThat(c.severity()).isEqualTo(Severity.CRITICAL));
    }
    // Not "GPU lost" for NVIDIA: 38 and 44 are to be ignored, 61 is reported to NVIDIA, 154 follows
    // the XID it accompanies.
    assertThat(verdict(detector, 38)).isEmpty();
    assertThat(verdict(detector, 44)).isEmpty();
    for (int code : List.of(61, 154)) {
      assertThat(verdict(detector, code))
          .as("XID %d", code)
          .singleElement()
          .satisfies(c -> assertThat(c.severity()).isEqualTo(Severity.WARNING));
    }
  }

  @Test
  void application_xids_raise_nothing_by_default_and_information_when_recorded() {
    xid(2, 13, 3, 3);
    xid(4, 31, 3, 3);
    xid(5, 43, 3, 3);
    xid(6, 45, 3, 3);
    fleet.run(5);
    assertThat(detector.evaluate(fleet.context())).isEmpty();

    XidDetector recording =
        new XidDetector(
            TypedConfig.of(XidDetectorConfig.class, Map.of("recordApplicationXids", true)));
    List<Condition> conditions = recording.evaluate(fleet.context());
    assertThat(conditions)
        .hasSize(4)
        .allSatisfy(
            c -> {
              assertThat(c.severity()).isEqualTo(Severity.INFO);
              assertThat(c.performanceFactor()).isEqualTo(1.0);
              assertThat(c.evidence()).containsEntry("class", "application");
              assertThat(c.recommendedAction()).startsWith("No action on the GPU");
            });
  }

  @Test
  void an_unknown_xid_is_a_warning() {
    xid(1, 999, 3, 3);
    fleet.run(4);

    assertThat(detector.evaluate(fleet.context()))
        .singleElement()
        .satisfies(
            c -> {
              assertThat(c.severity()).isEqualTo(Severity.WARNING);
              assertThat(c.evidence()).containsEntry("class", "not in the catalogue");
              assertThat(c.evidence().get("meaning"))
                  .contains("not in NVIDIA's XID catalogue")
                  .contains("1 to 162");
              assertThat(c.summary()).contains("XID 999");
            });
  }

  @Test
  void the_worst_code_seen_in_the_window_is_reported_and_all_codes_are_listed() {
    xid(0, 13, 2, 2);
    xid(0, 48, 4, 4);
    xid(0, 43, 6, 6);
    fleet.run(8);

    assertThat(detector.evaluate(fleet.context()))
        .singleElement()
        .satisfies(
            c -> {
              assertThat(c.severity()).isEqualTo(Severity.CRITICAL);
              assertThat(c.evidence())
                  .containsEntry("code", "48")
                  .containsEntry("codesSeen", "13, 48, 43");
            });
  }

  @Test
  void an_xid_holds_for_the_hold_time_and_then_clears() {
    xid(5, 79, 1, 1);
    fleet.run(30);
    assertThat(detector.evaluate(fleet.context())).hasSize(1);

    fleet.run(2);
    assertThat(detector.evaluate(fleet.context())).isEmpty();
  }

  @Test
  void no_xid_and_malformed_samples_raise_nothing() {
    NodeId target = node(0);
    fleet.with(
        (n, g, metric, s, sound) -> {
          if (!n.equals(target) || !metric.equals(DcgmField.XID_ERRORS)) {
            return null;
          }
          return switch (g) {
            case 0 -> Double.POSITIVE_INFINITY;
            case 1 -> -5.0;
            case 2 -> 48.5;
            default -> null;
          };
        });
    fleet.run(10);

    assertThat(detector.evaluate(fleet.context())).isEmpty();
  }

  @Test
  void a_gpu_that_dropped_out_of_telemetry_keeps_its_xid() {
    xid(6, 79, 2, 3);
    fleet.run(3);
    fleet.drop(node(1), 6);
    fleet.run(2);

    assertThat(detector.evaluate(fleet.context()))
        .singleElement()
        .satisfies(c -> assertThat(c.gpu()).isEqualTo(6));
  }

  @Test
  void configured_codes_extend_the_hardware_list_and_invalid_values_name_the_property() {
    XidDetector configured =
        new XidDetector(
            TypedConfig.of(
                XidDetectorConfig.class, Map.of("additionalHardwareXids", new int[] {555})));
    xid(1, 555, 3, 3);
    fleet.run(4);
    assertThat(configured.evaluate(fleet.context()))
        .singleElement()
        .satisfies(c -> assertThat(c.severity()).isEqualTo(Severity.CRITICAL));
    assertThat(detector.evaluate(fleet.context()))
        .singleElement()
        .satisfies(c -> assertThat(c.severity()).isEqualTo(Severity.WARNING));

    assertThat(XidOptions.from(TypedConfig.of(XidDetectorConfig.class, Map.of())))
        .isEqualTo(XidOptions.defaults());
    assertThatThrownBy(
            () ->
                new XidDetector(TypedConfig.of(XidDetectorConfig.class, Map.of("holdSeconds", 0))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("holdSeconds");
    assertThatThrownBy(
            () ->
                new XidDetector(
                    TypedConfig.of(
                        XidDetectorConfig.class, Map.of("applicationXids", new int[] {-1}))))
        .hasMessageContaining("applicationXids");
  }
}
