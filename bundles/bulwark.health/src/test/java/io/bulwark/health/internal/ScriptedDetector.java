package io.bulwark.health.internal;

import io.bulwark.api.health.Condition;
import io.bulwark.api.health.DetectionContext;
import io.bulwark.api.health.Detector;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** A detector whose conditions (or failure) the engine tests set before each evaluation. */
class ScriptedDetector implements Detector {
  private final String name;
  private volatile List<Condition> conditions = List.of();
  private volatile RuntimeException failure;
  final List<DetectionContext> seen = new CopyOnWriteArrayList<>();

  ScriptedDetector(String name) {
    this.name = name;
  }

  void reports(List<Condition> now) {
    this.conditions = List.copyOf(now);
    this.failure = null;
  }

  void fails(RuntimeException e) {
    this.failure = e;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public List<Condition> evaluate(DetectionContext context) {
    seen.add(context);
    if (failure != null) {
      throw failure;
    }
    return conditions;
  }
}
