package io.bulwark.health.bmc.internal;

import io.bulwark.api.health.Condition;
import io.bulwark.api.health.DetectionContext;
import io.bulwark.api.health.Detector;
import io.bulwark.api.machine.MachineReadings;
import io.bulwark.api.machine.MachineService;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A detector that judges each machine's latest BMC readings on their own: at most one condition per
 * machine, and only from readings recent enough ({@link FreshReadings#of}).
 */
abstract class MachineDetector implements Detector {
  private final MachineService machines;
  private final long maxAgeMillis;

  MachineDetector(MachineService machines, long maxAgeMillis) {
    this.machines = machines;
    this.maxAgeMillis = maxAgeMillis;
  }

  @Override
  public final List<Condition> evaluate(DetectionContext context) {
    List<Condition> conditions = new ArrayList<>();
    for (MachineReadings r : FreshReadings.of(machines, context.nowMillis(), maxAgeMillis)) {
      judge(r, context.nowMillis()).ifPresent(conditions::add);
    }
    return conditions;
  }

  /** Returns what holds on the machine now, from its readings, or empty if nothing does. */
  abstract Optional<Condition> judge(MachineReadings r, long nowMillis);
}
