package io.bulwark.health.scenarios;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * One labelled scenario, as read from a JSON file in {@code src/test/resources/scenarios}: a small
 * fleet of busy H100 nodes with seeded healthy noise, the timed events that make the fault (or the
 * benign disturbance), the jobs the scheduler runs on the nodes (when the scenario declares any),
 * and the findings the detectors are expected to raise.
 *
 * @param category {@code fault}, {@code healthy}, {@code benign} or {@code blind-spot} (a real
 *     fault the detectors are known not to see, kept so that the limit stays written down and
 *     measured); all but fault scenarios expect no finding at all
 * @param idle when GPUs run without load (the whole scenario unless the entry says otherwise)
 * @param jobs the jobs of the scheduler's job map; empty for a scenario without a job map
 */
record Scenario(
    String name,
    String description,
    String category,
    int nodes,
    int gpusPerNode,
    int durationSeconds,
    long seed,
    List<Idle> idle,
    List<ScenarioEvent> events,
    List<ExpectedFinding> expected,
    List<ScenarioJob> jobs) {

  /** The categories a scenario may have. */
  static final Set<String> CATEGORIES = Set.of("fault", "healthy", "benign", "blind-spot");

  /**
   * GPU {@code gpu} (every GPU of the node when -1) of node {@code node} is idle in [from, until).
   */
  record Idle(int node, int gpu, int from, int until) {
    boolean covers(int n, int g, int t) {
      return node == n && (gpu < 0 || gpu == g) && t >= from && t < until;
    }
  }

  Scenario {
    if (!CATEGORIES.contains(category)) {
      throw new IllegalArgumentException(name + ": unknown category " + category);
    }
    if (nodes < 1 || nodes > 8 || gpusPerNode < 1 || gpusPerNode > 8) {
      throw new IllegalArgumentException(name + ": 1-8 nodes of 1-8 GPUs, not " + nodes);
    }
    if (durationSeconds < 30 || durationSeconds > 600) {
      throw new IllegalArgumentException(name + ": duration must be 30-600 s");
    }
    if (!category.equals("fault") && !expected.isEmpty()) {
      throw new IllegalArgumentException(name + ": a " + category + " scenario expects nothing");
    }
    if (category.equals("fault") && expected.isEmpty()) {
      throw new IllegalArgumentException(name + ": a fault scenario needs labels");
    }
    idle = List.copyOf(idle);
    events = List.copyOf(events);
    expected = List.copyOf(expected);
    jobs = List.copyOf(jobs);
    for (ScenarioJob job : jobs) {
      if (job.nodes().stream().anyMatch(n -> n < 0 || n >= nodes)
          || job.from() >= durationSeconds) {
        throw new IllegalArgumentException(name + ": job outside the fleet or time: " + job);
      }
    }
  }

  /** Returns the node name of node {@code n}, as its exporter's Hostname label gives it. */
  String nodeName(int n) {
    return String.format(Locale.ROOT, "%s-n%02d", name, n + 1);
  }

  /** Returns true if GPU {@code gpu} of node {@code node} runs without load in second {@code t}. */
  boolean isIdle(int node, int gpu, int t) {
    for (Idle i : idle) {
      if (i.covers(node, gpu, t)) {
        return true;
      }
    }
    return false;
  }

  /** Returns true if GPU {@code gpu} of node {@code node} is idle for the whole scenario. */
  boolean isIdleThroughout(int node, int gpu) {
    for (Idle i : idle) {
      if (i.node() == node
          && (i.gpu() < 0 || i.gpu() == gpu)
          && i.from() <= 0
          && i.until() >= durationSeconds) {
        return true;
      }
    }
    return false;
  }

  /** Returns true if GPU {@code gpu} of node {@code node} is idle in some second. */
  boolean isEverIdle(int node, int gpu) {
    for (Idle i : idle) {
      if (i.node() == node && (i.gpu() < 0 || i.gpu() == gpu)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Parses a scenario file.
   *
   * @throws IllegalArgumentException naming the scenario and what is wrong with it
   */
  static Scenario parse(String fileName, String text) {
    JsonObject json = new JsonObject(text);
    String name = json.getString("name", fileName.replace(".json", ""));
    int nodes = json.getInteger("nodes", 2);
    int gpus = json.getInteger("gpusPerNode", 8);
    int duration = json.getInteger("durationSeconds", 180);
    List<Idle> idle = new ArrayList<>();
    for (Object o : json.getJsonArray("idle", new JsonArray())) {
      JsonObject i = (JsonObject) o;
      idle.add(
          new Idle(
              i.getInteger("node"),
              i.getInteger("gpu", -1),
              i.getInteger("from", 0),
              i.getInteger("until", duration)));
    }
    List<ScenarioJob> jobs = new ArrayList<>();
    for (Object o : json.getJsonArray("jobs", new JsonArray())) {
      jobs.add(ScenarioJob.from((JsonObject) o, duration));
    }
    List<ScenarioEvent> events = new ArrayList<>();
    for (Object o : json.getJsonArray("events", new JsonArray())) {
      events.add(ScenarioEvent.from((JsonObject) o, duration));
    }
    List<ExpectedFinding> expected = new ArrayList<>();
    for (Object o : json.getJsonArray("expected", new JsonArray())) {
      expected.add(ExpectedFinding.from((JsonObject) o));
    }
    for (ExpectedFinding e : expected) {
      if (e.node() >= nodes || e.gpu() >= gpus || e.onsetSecond() >= duration) {
        throw new IllegalArgumentException(name + ": label outside the fleet or time: " + e);
      }
    }
    return new Scenario(
        name,
        json.getString("description", ""),
        json.getString("category", "fault"),
        nodes,
        gpus,
        duration,
        json.getLong("seed", 1L),
        idle,
        events,
        expected,
        jobs);
  }

  /** Returns a copy with other labels, for the harness self-test. */
  Scenario withExpected(List<ExpectedFinding> labels) {
    return new Scenario(
        name,
        description,
        category,
        nodes,
        gpusPerNode,
        durationSeconds,
        seed,
        idle,
        events,
        labels,
        jobs);
  }
}
