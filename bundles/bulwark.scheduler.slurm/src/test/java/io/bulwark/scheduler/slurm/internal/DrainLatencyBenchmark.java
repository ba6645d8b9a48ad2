package io.bulwark.scheduler.slurm.internal;

import io.bulwark.api.scheduler.SchedulerState;
import io.bulwark.testing.slurm.SlurmCluster;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Benchmark harness (not a test; run by hand): how long after a job ends the connector reports its
 * drained node {@link SchedulerState#DRAINED}, on the test cluster of {@link SlurmCluster}. Each
 * round submits a job to a node, drains the node, checks it is draining, cancels the job and polls
 * {@code node()} until it reports drained, then resumes the node. Prints the cluster's start time,
 * then median, 90th and 99th percentile and maximum of: drain issued to drained, job cancelled to
 * drained, and one {@code node()} call.
 *
 * <p>Arguments: ROUNDS (20), POLL_MS (20). Class path: this module's test class path.
 */
public final class DrainLatencyBenchmark {
  private DrainLatencyBenchmark() {}

  public static void main(String[] args) throws Exception {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 20;
    long pollMs = args.length > 1 ? Long.parseLong(args[1]) : 20;
    Path dir = Files.createTempDirectory("slurm-drain-bench");
    List<Long> starts = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      try (SlurmCluster c = SlurmCluster.start(dir.resolve("start-" + i), List.of("n1", "n2"))) {
        starts.add(c.startedIn().toMillis());
      }
    }
    System.out.println("cluster start (2 nodes, 5 starts), ms: " + stats(starts));
    List<Long> fromDrain = new ArrayList<>();
    List<Long> fromEnd = new ArrayList<>();
    List<Long> calls = new ArrayList<>();
    try (SlurmCluster cluster =
        SlurmCluster.start(dir.resolve("cluster"), List.of("gpu01", "gpu02", "gpu03"))) {
      SlurmConnector slurm =
          new SlurmConnector(
              new SlurmOptions(
                  "slurm",
                  Optional.of(cluster.slurmConf()),
                  cluster.program("scontrol").getParent(),
                  Duration.ofSeconds(10)));
      for (int round = 0; round < rounds; round++) {
        String job = cluster.submit("gpu02", Duration.ofMinutes(10));
        long drainIssued = System.nanoTime();
        slurm.drain("gpu02", "benchmark round " + round);
        if (slurm.node("gpu02").orElseThrow().state() != SchedulerState.DRAINING) {
          throw new IllegalStateException("gpu02 is not draining with job " + job + " on it");
        }
        cluster.cancel(job);
        long cancelled = System.nanoTime();
        while (true) {
          long before = System.nanoTime();
          SchedulerState state = slurm.node("gpu02").orElseThrow().state();
          long after = System.nanoTime();
          calls.add((after - before) / 1_000_000);
          if (state == SchedulerState.DRAINED) {
            fromDrain.add((after - drainIssued) / 1_000_000);
            fromEnd.add((after - cancelled) / 1_000_000);
            break;
          }
          Thread.sleep(pollMs);
        }
        slurm.resume("gpu02", "benchmark round " + round + " done");
        while (slurm.node("gpu02").orElseThrow().state() != SchedulerState.AVAILABLE) {
          Thread.sleep(pollMs);
        }
      }
    }
    System.out.println("drain issued -> DRAINED, ms: " + stats(fromDrain));
    System.out.println("job cancelled -> DRAINED, ms: " + stats(fromEnd));
    System.out.println("one node() call (sinfo --json + squeue), ms: " + stats(calls));
  }

  private static String stats(List<Long> values) {
    List<Long> sorted = new ArrayList<>(values);
    Collections.sort(sorted);
    return String.format(
        Locale.ROOT,
        "n=%d median=%d p90=%d p99=%d max=%d",
        sorted.size(),
        percentile(sorted, 50),
        percentile(sorted, 90),
        percentile(sorted, 99),
        sorted.get(sorted.size() - 1));
  }

  private static long percentile(List<Long> sorted, int p) {
    int index = (int) Math.ceil(p / 100.0 * sorted.size()) - 1;
    return sorted.get(Math.max(0, Math.min(sorted.size() - 1, index)));
  }
}
