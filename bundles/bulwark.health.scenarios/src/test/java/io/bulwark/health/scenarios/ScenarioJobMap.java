package io.bulwark.health.scenarios;

import io.bulwark.api.scheduler.JobPlacement;
import io.bulwark.api.scheduler.SchedulerJob;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The job map of a replay, as the appliance keeps it: the scenario's jobs are read every {@link
 * #REFRESH_SECONDS} seconds of virtual time (from second 0), and readers get the jobs of the last
 * read and its time, so a job that starts or ends shows only at the next read. Node names are the
 * scenario's host names. Read by detectors on the engine's thread; advanced by the replay.
 */
final class ScenarioJobMap implements JobPlacement {
  /** How often the scheduler is read, as the appliance's job map does. */
  static final int REFRESH_SECONDS = 15;

  private final Scenario scenario;
  private volatile List<SchedulerJob> jobs = List.of();
  private volatile long readAt;

  ScenarioJobMap(Scenario scenario) {
    this.scenario = scenario;
  }

  /** Reads the scheduler if a refresh falls on second {@code t} (at {@code millis}). */
  void round(int t, long millis) {
    if (t % REFRESH_SECONDS != 0) {
      return;
    }
    Map<List<String>, List<String>> nodes = new LinkedHashMap<>();
    for (ScenarioJob job : scenario.jobs()) {
      if (job.activeAt(t)) {
        List<String> on =
            nodes.computeIfAbsent(List.of(job.scheduler(), job.id()), k -> new ArrayList<>());
        job.nodes().forEach(n -> on.add(scenario.nodeName(n)));
      }
    }
    List<SchedulerJob> read = new ArrayList<>();
    nodes.forEach((key, on) -> read.add(new SchedulerJob(key.get(0), key.get(1), on)));
    jobs = List.copyOf(read);
    readAt = millis;
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
