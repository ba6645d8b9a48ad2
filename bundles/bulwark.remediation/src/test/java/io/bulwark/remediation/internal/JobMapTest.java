package io.bulwark.remediation.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.bulwark.api.scheduler.SchedulerJob;
import io.bulwark.api.scheduler.SchedulerNode;
import io.bulwark.api.scheduler.SchedulerState;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class JobMapTest {
  @Test
  void nodesWithTheirJobsBecomeJobsWithTheirNodes() {
    List<SchedulerNode> nodes =
        List.of(node("a", "10", "11"), node("b", "10"), node("c"), node("d", "10", "12"));
    List<SchedulerJob> jobs = JobMap.jobsOf("slurm", nodes);
    assertEquals(
        List.of(
            new SchedulerJob("slurm", "10", List.of("a", "b", "d")),
            new SchedulerJob("slurm", "11", List.of("a")),
            new SchedulerJob("slurm", "12", List.of("d"))),
        jobs);
  }

  @Test
  void aSchedulerThatCannotBeReadKeepsItsLastJobs() {
    FakeScheduler s = new FakeScheduler(3, "gpu");
    s.job("node-000", "7");
    s.job("node-001", "7");
    Schedulers schedulers = new Schedulers();
    schedulers.bind(s);
    JobMap map = new JobMap(schedulers);
    try {
      map.refresh(1_000);
      assertEquals(
          List.of(new SchedulerJob("fake", "7", List.of("node-000", "node-001"))), map.jobs());
      s.unreachable = true;
      map.refresh(2_000);
      assertEquals(1, map.jobs().size());
      assertEquals(1_000, map.readAtMillis(), "as old as the last answer of the scheduler");
      schedulers.unbind(s);
      map.refresh(3_000);
      assertEquals(List.of(), map.jobs(), "a connector that went away takes its jobs with it");
    } finally {
      map.deactivate();
    }
  }

  private static SchedulerNode node(String name, String... jobs) {
    return new SchedulerNode(
        name, SchedulerState.AVAILABLE, "MIXED", "", Set.of("gpu"), List.of(jobs));
  }
}
