package io.bulwark.scheduler.slurm.internal;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the jobs on each node from {@code squeue --noheader --states=RUNNING,SUSPENDED,COMPLETING
 * --format=%i|%T|%N}: one line per job with its id (an array task as {@code 1234_7}, a
 * heterogeneous job's component as {@code 1234+1}), its state and its nodes as a hostlist
 * expression ({@code gpu[01-03,07]}), which is expanded here. A job on several nodes is listed on
 * each of them.
 */
final class SqueueJobs {
  /** squeue's arguments for this listing, without a node filter. */
  static final List<String> ARGUMENTS =
      List.of("--noheader", "--states=RUNNING,SUSPENDED,COMPLETING", "--format=%i|%T|%N");

  private SqueueJobs() {}

  /**
   * Returns, for each node with jobs, the ids of its jobs in squeue's order.
   *
   * @throws SlurmOutputException if a line is not {@code id|state|nodes} or its nodes are not a
   *     hostlist expression
   */
  static Map<String, List<String>> parse(String text) throws SlurmOutputException {
    Map<String, List<String>> jobs = new LinkedHashMap<>();
    int number = 0;
    for (String line : text.split("\n", -1)) {
      number++;
      String l = line.strip();
      if (l.isEmpty()) {
        continue;
      }
      String[] fields = l.split("\\|", -1);
      if (fields.length != 3 || fields[0].isBlank()) {
        throw new SlurmOutputException(
            "line " + number + " is not \"job id|state|nodes\": " + SlurmText.oneLine(l));
      }
      String nodes = fields[2].strip();
      if (nodes.isEmpty() || nodes.equals("(null)")) {
        continue;
      }
      List<String> expanded;
      try {
        expanded = Hostlist.expand(nodes);
      } catch (IllegalArgumentException e) {
        throw new SlurmOutputException("line " + number + ": " + e.getMessage(), e);
      }
      for (String node : expanded) {
        List<String> onNode = jobs.computeIfAbsent(node, n -> new ArrayList<>());
        if (!onNode.contains(fields[0].strip())) {
          onNode.add(fields[0].strip());
        }
      }
    }
    return jobs;
  }
}
