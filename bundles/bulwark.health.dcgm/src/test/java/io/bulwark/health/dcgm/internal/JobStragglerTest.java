package io.bulwark.health.dcgm.internal;

import static io.bulwark.health.dcgm.internal.SimulatedFleet.node;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.bulwark.api.fleet.NodeId;
import io.bulwark.api.health.Condition;
import io.bulwark.api.health.Severity;
import io.bulwark.api.scheduler.JobPlacement;
import io.bulwark.api.scheduler.SchedulerJob;
import io.bulwark.api.telemetry.ClockEventReason;
import io.bulwark.api.telemetry.DcgmField;
import io.bulwark.testing.TypedConfig;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * The straggler detector with a job map: given six busy nodes of eight H100s in one Slurm job, when
 * a whole node runs slow, then it is a node-level straggler once it has been in the job for a
 * window; and never for a dip the whole job shares, a node that just joined, a job on too few
 * nodes, a stale job map, a node that shares jobs or throttles, or activity that was always lower.
 */
class JobStragglerTest {
  private static final int REFRESH_SECONDS = 15;

  private final SimulatedFleet fleet = new SimulatedFleet(6, 8, "H100");
  private final TestJobMap jobMap = new TestJobMap();
  private final StragglerDetector detector = new StragglerDetector(StragglerOptions.defaults());
  private final List<Condition> everReported = new ArrayList<>();
  private final Map<StragglerDetector, List<Condition>> others = new LinkedHashMap<>();
  private List<SchedulerJob> running = List.of(job("4711", 0, 1, 2, 3, 4, 5));
  private boolean refreshing = true;
  private long firstNodeLevelSecond = -1;

  JobStragglerTest() {
    detector.bindJobPlacement(jobMap);
  }

  @Test
  void a_whole_node_running_ten_percent_slow_is_a_node_level_straggler_of_its_job() {
    long onset = 150;
    slowNode(3, DcgmField.SM_CLOCK, 0.9, onset, Long.MAX_VALUE);
    slowNode(3, DcgmField.POWER_USAGE, 0.93, onset, Long.MAX_VALUE);

    List<Condition> now = judge(230);

    assertThat(now)
        .singleElement()
        .satisfies(
            c -> {
              assertThat(c.kind()).isEqualTo("straggler");
              assertThat(c.node()).isEqualTo(node(3));
              assertThat(c.gpu()).isEqualTo(-1);
              assertThat(c.severity()).isEqualTo(Severity.WARNING);
              assertThat(c.performanceFactor()).isCloseTo(0.9, within(0.02));
              assertThat(c.evidence())
                  .containsEntry("metric", DcgmField.SM_CLOCK)
                  .containsEntry("job", "4711")
                  .containsEntry("scheduler", "slurm")
                  .containsEntry("jobNodes", "6")
                  .containsEntry("window", "last 120 s")
                  .containsKeys("smClock.cusum", "smClock.since", "jobMapReadAt", "threshold");
              assertThat(c.evidence().get("peers"))
                  .startsWith("5 other nodes of job 4711")
                  .contains("gpu-node-000", "gpu-node-005")
                  .doesNotContain("gpu-node-003");
              assertThat(c.evidence().get("smClock.node")).matches("17[78][0-9] MHz");
              assertThat(c.evidence().get("smClock.jobMedian")).endsWith(" MHz");
              assertThat(c.evidence().get("gpus")).startsWith("8 H100 GPUs");
              assertThat(c.summary())
                  .startsWith(
                      "gpu-node-003 runs 10% slower than the other 5 nodes of job 4711 (slurm):"
                          + " median SM clock 17")
                  .contains(" MHz against the job's median of 19");
              assertThat(c.recommendedAction()).contains("Drain gpu-node-003", "job 4711");
            });
    assertThat(everReported).allSatisfy(c -> assertThat(c.node()).isEqualTo(node(3)));
    assertThat(firstNodeLevelSecond - onset).isBetween(5L, 15L);
  }

  @Test
  void without_a_job_map_or_with_the_comparison_off_a_slow_node_is_not_found() {
    slowNode(3, DcgmField.SM_CLOCK, 0.9, 0, Long.MAX_VALUE);
    StragglerDetector off =
        alsoJudging(
            new StragglerDetector(
                TypedConfig.of(StragglerDetectorConfig.class, Map.of("compareJobNodes", false))));
    off.bindJobPlacement(jobMap);
    StragglerDetector unbound = alsoJudging(new StragglerDetector(StragglerOptions.defaults()));
    unbound.bindJobPlacement(jobMap);
    StragglerDetector never = alsoJudging(new StragglerDetector(StragglerOptions.defaults()));

    judge(150);
    unbound.unbindJobPlacement(new TestJobMap());
    assertThat(judge(50)).hasSize(1);
    assertThat(others.get(unbound)).isNotEmpty();
    others.get(unbound).clear();
    unbound.unbindJobPlacement(jobMap);
    judge(10);

    assertThat(others.get(off)).isEmpty();
    assertThat(others.get(never)).isEmpty();
    assertThat(others.get(unbound)).isEmpty();
  }

  @Test
  void a_dip_the_whole_job_shares_is_not_a_straggler() {
    fleet.with(
        (n, g, m, s, sound) -> {
          int lag = n.equals(node(4)) || n.equals(node(5)) ? 1 : 0;
          boolean checkpoint = (s - lag) % 40 >= 30 && (s - lag) % 40 < 38;
          if (!checkpoint) {
            return null;
          }
          return switch (m) {
            case DcgmField.SM_ACTIVE -> sound * 0.55;
            case DcgmField.SM_CLOCK -> sound * 0.9;
            case DcgmField.GPU_UTIL -> sound * 0.7;
            case DcgmField.POWER_USAGE -> sound * 0.6;
            default -> null;
          };
        });

    judge(320);

    assertThat(everReported).isEmpty();
  }

  @Test
  void a_node_that_joined_less_than_a_window_ago_is_neither_judged_nor_a_peer() {
    warmingUpFrom(5, 100);
    running = List.of(job("4711", 0, 1, 2, 3, 4));

    judge(100);
    running = List.of(job("4711", 0, 1, 2, 3, 4, 5));
    judge(200);

    assertThat(everReported).isEmpty();
  }

  @Test
  void a_node_judged_through_its_warm_up_would_be_a_straggler() {
    warmingUpFrom(5, 100);

    judge(210);

    assertThat(everReported)
        .isNotEmpty()
        .allSatisfy(
            c -> {
              assertThat(c.node()).isEqualTo(node(5));
              assertThat(c.gpu()).isEqualTo(-1);
            });
  }

  @Test
  void jobs_on_fewer_nodes_than_the_minimum_are_not_compared() {
    slowNode(1, DcgmField.SM_CLOCK, 0.85, 0, Long.MAX_VALUE);
    slowNode(4, DcgmField.SM_CLOCK, 0.85, 0, Long.MAX_VALUE);
    running = List.of(job("1", 0, 1), job("2", 2), job("3", 3, 4, 5));
    StragglerDetector fourNodes =
        alsoJudging(
            new StragglerDetector(
                TypedConfig.of(StragglerDetectorConfig.class, Map.of("jobMinNodes", 4))));
    fourNodes.bindJobPlacement(jobMap);

    List<Condition> now = judge(200);

    assertThat(now).singleElement().satisfies(c -> assertThat(c.node()).isEqualTo(node(4)));
    assertThat(everReported).allSatisfy(c -> assertThat(c.node()).isEqualTo(node(4)));
    assertThat(others.get(fourNodes)).isEmpty();
  }

  @Test
  void a_stale_job_map_pauses_the_comparison() {
    slowNode(2, DcgmField.SM_CLOCK, 0.85, 0, Long.MAX_VALUE);
    assertThat(judge(180)).hasSize(1);

    refreshing = false;
    assertThat(judge(55)).hasSize(1);
    assertThat(judge(10)).isEmpty();
  }

  @Test
  void a_node_that_shares_jobs_is_neither_judged_nor_a_peer() {
    slowNode(3, DcgmField.SM_CLOCK, 0.85, 0, Long.MAX_VALUE);
    running = List.of(job("4711", 0, 1, 2, 3, 4, 5), job("4712", 3));

    judge(200);

    assertThat(everReported).isEmpty();
  }

  @Test
  void a_node_whose_gpus_throttle_is_left_to_the_throttle_detectors() {
    slowNode(3, DcgmField.SM_CLOCK, 0.85, 0, Long.MAX_VALUE);
    NodeId capped = node(3);
    fleet.with(
        (n, g, m, s, sound) ->
            n.equals(capped) && m.equals(DcgmField.CLOCKS_EVENT_REASONS)
                ? (double) ClockEventReason.SW_POWER_CAP.mask()
                : null);

    judge(200);

    assertThat(everReported).isEmpty();
  }

  @Test
  void gpus_with_a_finding_of_their_own_count_once_and_not_in_their_node() {
    NodeId mixed = node(2);
    fleet.with(
        (n, g, m, s, sound) ->
            n.equals(mixed) && m.equals(DcgmField.SM_CLOCK) && g < 3 ? sound * 0.5 : null);
    fleet.with(
        (n, g, m, s, sound) ->
            n.equals(node(4)) && m.equals(DcgmField.SM_CLOCK) && g < 3 ? sound * 0.5 : null);
    slowNode(4, DcgmField.SM_CLOCK, 0.88, 0, Long.MAX_VALUE);

    List<Condition> now = judge(200);

    assertThat(now)
        .filteredOn(c -> c.gpu() >= 0)
        .extracting(Condition::node, Condition::gpu)
        .containsExactlyInAnyOrder(
            org.assertj.core.groups.Tuple.tuple(mixed, 0),
            org.assertj.core.groups.Tuple.tuple(mixed, 1),
            org.assertj.core.groups.Tuple.tuple(mixed, 2),
            org.assertj.core.groups.Tuple.tuple(node(4), 0),
            org.assertj.core.groups.Tuple.tuple(node(4), 1),
            org.assertj.core.groups.Tuple.tuple(node(4), 2));
    assertThat(now)
        .filteredOn(c -> c.gpu() < 0)
        .singleElement()
        .satisfies(
            c -> {
              assertThat(c.node()).isEqualTo(node(4));
              assertThat(c.performanceFactor()).isCloseTo(0.88, within(0.02));
              assertThat(c.evidence().get("gpus")).startsWith("5 H100 GPUs");
            });
  }

  @Test
  void
      activity_lower_from_the_start_of_the_job_is_its_shape_but_a_drop_after_keeping_pace_is_not() {
    slowNode(2, DcgmField.SM_ACTIVE, 0.85, 0, Long.MAX_VALUE);
    slowNode(4, DcgmField.SM_ACTIVE, 0.85, 170, Long.MAX_VALUE);

    List<Condition> now = judge(240);

    assertThat(now)
        .singleElement()
        .satisfies(
            c -> {
              assertThat(c.node()).isEqualTo(node(4));
              assertThat(c.evidence()).containsEntry("metric", DcgmField.SM_ACTIVE);
              assertThat(c.summary()).contains("median SM activity");
              assertThat(c.performanceFactor()).isCloseTo(0.85, within(0.02));
            });
    assertThat(everReported).allSatisfy(c -> assertThat(c.node()).isEqualTo(node(4)));
  }

  @Test
  void a_node_idle_in_its_job_is_not_judged() {
    NodeId done = node(1);
    fleet.with(
        (n, g, m, s, sound) -> {
          if (!n.equals(done) || s < 140) {
            return null;
          }
          return switch (m) {
            case DcgmField.GPU_UTIL, DcgmField.SM_ACTIVE -> 0.0;
            case DcgmField.SM_CLOCK -> 345.0;
            case DcgmField.POWER_USAGE -> 70.0;
            default -> null;
          };
        });

    judge(220);

    assertThat(everReported).isEmpty();
  }

  @Test
  void a_node_with_fewer_than_half_of_its_gpus_busy_is_not_judged() {
    NodeId partial = node(2);
    fleet.with(
        (n, g, m, s, sound) ->
            n.equals(partial) && g >= 3 && m.equals(DcgmField.GPU_UTIL) ? 0.0 : null);
    fleet.with(
        (n, g, m, s, sound) ->
            n.equals(partial) && g < 3 && m.equals(DcgmField.SM_CLOCK) ? sound * 0.85 : null);

    judge(200);

    assertThat(everReported).isEmpty();
  }

  @Test
  void invalid_job_values_name_the_property() {
    for (var bad : Map.<String, Object>of("jobMinNodes", 2, "jobMapMaxAgeSeconds", 0).entrySet()) {
      assertThatThrownBy(
              () ->
                  new StragglerDetector(
                      TypedConfig.of(
                          StragglerDetectorConfig.class, Map.of(bad.getKey(), bad.getValue()))))
          .hasMessageContaining(bad.getKey());
    }
  }

  /**
   * Runs the fleet {@code seconds} seconds, refreshing the job map every 15 s while {@link
   * #refreshing} and evaluating every second; returns the conditions of the last evaluation.
   */
  private List<Condition> judge(int seconds) {
    List<Condition> last = List.of();
    for (int i = 0; i < seconds; i++) {
      fleet.run(1);
      long s = fleet.secondsSinceStart();
      if (refreshing && (s == 1 || s % REFRESH_SECONDS == 0)) {
        jobMap.read(fleet.now(), running);
      }
      last = detector.evaluate(fleet.context());
      for (Condition c : last) {
        if (c.gpu() < 0 && firstNodeLevelSecond < 0) {
          firstNodeLevelSecond = s;
        }
      }
      everReported.addAll(last.stream().filter(c -> c.gpu() < 0).toList());
      others.forEach(
          (d, seen) ->
              seen.addAll(d.evaluate(fleet.context()).stream().filter(c -> c.gpu() < 0).toList()));
    }
    return last;
  }

  /** Evaluates {@code other} alongside the detector under test; its node-level findings. */
  private StragglerDetector alsoJudging(StragglerDetector other) {
    others.put(other, new ArrayList<>());
    return other;
  }

  /**
   * Scales {@code metric} of every GPU of node {@code n} from second {@code from} to {@code to}.
   */
  private void slowNode(int n, String metric, double factor, long from, long to) {
    NodeId target = node(n);
    fleet.with(
        (id, g, m, s, sound) ->
            id.equals(target) && m.equals(metric) && s >= from && s <= to ? sound * factor : null);
  }

  /** Node {@code n} is idle until {@code start}, then runs 10-30% slow for a minute. */
  private void warmingUpFrom(int n, long start) {
    NodeId target = node(n);
    fleet.with(
        (id, g, m, s, sound) -> {
          if (!id.equals(target) || s >= start + 60) {
            return null;
          }
          if (s < start) {
            return switch (m) {
              case DcgmField.GPU_UTIL, DcgmField.SM_ACTIVE -> 0.0;
              case DcgmField.SM_CLOCK -> 345.0;
              default -> null;
            };
          }
          return switch (m) {
            case DcgmField.SM_ACTIVE -> sound * 0.7;
            case DcgmField.SM_CLOCK -> sound * 0.9;
            default -> null;
          };
        });
  }

  private static SchedulerJob job(String id, int... nodes) {
    return new SchedulerJob(
        "slurm", id, IntStream.of(nodes).mapToObj(n -> node(n).value()).toList());
  }

  /** A job map as the scheduler connectors keep it: the jobs of the last read, and its time. */
  private static final class TestJobMap implements JobPlacement {
    private volatile List<SchedulerJob> jobs = List.of();
    private volatile long readAt;

    void read(long atMillis, List<SchedulerJob> now) {
      jobs = List.copyOf(now);
      readAt = atMillis;
    }

    @Override
    public List<SchedulerJob> jobs() {
      return jobs;
    }

    @Override
    public long readAtMillis() {
      return readAt;
    }
  }
}
