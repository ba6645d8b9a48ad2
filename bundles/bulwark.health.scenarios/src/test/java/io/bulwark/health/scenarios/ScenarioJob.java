package io.bulwark.health.scenarios;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;

/**
 * Nodes a scenario's scheduler lists in one job from second {@code from} until second {@code until}
 * (exclusive; the end of the scenario when absent). Several entries with the same scheduler and id
 * make one job whose nodes change over time: a job that grows, or nodes that leave it.
 *
 * @param nodes indexes of the scenario's nodes, in the scheduler's order
 */
record ScenarioJob(String scheduler, String id, List<Integer> nodes, int from, int until) {
  ScenarioJob {
    nodes = List.copyOf(nodes);
    if (nodes.isEmpty() || id.isEmpty() || scheduler.isEmpty() || until <= from || from < 0) {
      throw new IllegalArgumentException(
          "a job needs an id, a scheduler, nodes and from < until: " + id);
    }
  }

  /** Returns true if the scheduler lists these nodes in the job in second {@code t}. */
  boolean activeAt(int t) {
    return t >= from && t < until;
  }

  /**
   * Parses one job entry.
   *
   * @param end the scenario's duration, used when {@code until} is absent
   */
  static ScenarioJob from(JsonObject json, int end) {
    List<Integer> nodes = new ArrayList<>();
    for (Object n : json.getJsonArray("nodes", new JsonArray())) {
      nodes.add(((Number) n).intValue());
    }
    return new ScenarioJob(
        json.getString("scheduler", "slurm"),
        json.getString("id", ""),
        nodes,
        json.getInteger("from", 0),
        json.getInteger("until", end));
  }
}
