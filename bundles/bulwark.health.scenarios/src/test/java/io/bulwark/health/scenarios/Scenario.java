package io.bulwark.health.scenarios;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * One labelled scenario, as read from a JSON file in {@code src/test/resources/scenarios}: a small
 * fleet of busy H100 nodes with seeded healthy noise, the timed events that make the fault (or the
 * benign disturbance), and the findings the detectors are expected to raise.
 *
 * @param category {@code fault}, {@code healthy} or {@code benign}; healthy and benign scenarios
 *     expect no finding at all
 * @param idle GPUs without load, as {@code node * 1000 + gpu}
 */
record Scenario(
    String name,
    String description,
    String category,
    int nodes,
    int gpusPerNode,
    int durationSeconds,
    long seed,
    Set<Integer> idle,
    List<ScenarioEvent> events,
    List<ExpectedFinding> expected) {

  /** The categories a scenario may have. */
  static final Set<String> CATEGORIES = Set.of("fault", "healthy", "benign");

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
    idle = Set.copyOf(idle);
    events = List.copyOf(events);
    expected = List.copyOf(expected);
  }

  /** Returns the node name of node {@code n}, as its exporter's Hostname label gives it. */
  String nodeName(int n) {
    return String.format(Locale.ROOT, "%s-n%02d", name, n + 1);
  }

  boolean isIdle(int node, int gpu) {
    return idle.contains(node * 1000 + gpu);
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
    Set<Integer> idle = new HashSet<>();
    for (Object o : json.getJsonArray("idle", new JsonArray())) {
      JsonObject i = (JsonObject) o;
      int node = i.getInteger("node");
      int gpu = i.getInteger("gpu", -1);
      for (int g = 0; g < gpus; g++) {
        if (gpu < 0 || gpu == g) {
          idle.add(node * 1000 + g);
        }
      }
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
        expected);
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
        labels);
  }
}
