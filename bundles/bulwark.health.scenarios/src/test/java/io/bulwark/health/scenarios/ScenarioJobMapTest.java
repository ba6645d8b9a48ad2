package io.bulwark.health.scenarios;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bulwark.api.scheduler.JobPlacement;
import io.bulwark.api.scheduler.SchedulerJob;
import io.bulwark.testing.DetectorDiscovery;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The job map of a replay: given a scenario whose job grows and ends, when the replay advances it,
 * then readers see the jobs of the last read (every 15 s), one job per scheduler and id with its
 * nodes' host names; and the straggler detector is the detector that takes it.
 */
class ScenarioJobMapTest {
  private static final Scenario GROWING =
      Scenario.parse(
          "jobs.json",
          "{\"name\":\"jobs\",\"category\":\"benign\",\"nodes\":4,\"durationSeconds\":120,"
              + "\"jobs\":[{\"id\":\"7\",\"nodes\":[0,1]},"
              + "{\"id\":\"7\",\"nodes\":[2],\"from\":20,\"until\":50},"
              + "{\"id\":\"9\",\"scheduler\":\"pbs\",\"nodes\":[3],\"from\":40}]}");

  @Test
  void readersSeeTheJobsOfTheLastReadOnly() {
    ScenarioJobMap map = new ScenarioJobMap(GROWING);
    assertThat(map.readAtMillis()).isZero();
    assertThat(map.jobs()).isEmpty();

    map.round(0, 1000);
    assertThat(map.jobs()).containsExactly(new SchedulerJob("slurm", "7", names(0, 1)));
    map.round(20, 21_000);
    assertThat(map.readAtMillis()).isEqualTo(1000);
    assertThat(map.jobs()).containsExactly(new SchedulerJob("slurm", "7", names(0, 1)));

    map.round(30, 31_000);
    assertThat(map.readAtMillis()).isEqualTo(31_000);
    assertThat(map.jobs()).containsExactly(new SchedulerJob("slurm", "7", names(0, 1, 2)));

    map.round(45, 46_000);
    map.round(60, 61_000);
    assertThat(map.jobs())
        .containsExactly(
            new SchedulerJob("slurm", "7", names(0, 1)), new SchedulerJob("pbs", "9", names(3)));
  }

  @Test
  void theStragglerDetectorTakesTheJobMapAsItsComponentDeclares() {
    List<String> taking =
        DetectorDiscovery.onClassPath().detectors().stream()
            .filter(d -> ReferenceBinding.bind(d, JobPlacement.class, new ScenarioJobMap(GROWING)))
            .map(d -> d.getClass().getSimpleName())
            .toList();
    assertThat(taking).containsExactly("StragglerDetector");
  }

  @Test
  void aJobOutsideTheFleetIsRejected() {
    assertThatThrownBy(
            () ->
                Scenario.parse(
                    "bad.json",
                    "{\"name\":\"bad\",\"category\":\"benign\",\"nodes\":2,"
                        + "\"jobs\":[{\"id\":\"1\",\"nodes\":[0,2]}]}"))
        .hasMessageContaining("job outside the fleet");
  }

  private static List<String> names(int... nodes) {
    return java.util.Arrays.stream(nodes).mapToObj(GROWING::nodeName).toList();
  }
}
