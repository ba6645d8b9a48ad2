package io.bulwark.web.internal;

import io.bulwark.api.system.SubsystemCheck;
import io.bulwark.api.system.SubsystemState;
import io.bulwark.api.system.SubsystemStatus;
import java.time.Instant;
import java.util.Map;

/** A subsystem's self-report that a test sets: what the web plane shows for it. */
final class FixedCheck implements SubsystemCheck {
  private volatile SubsystemStatus status;

  FixedCheck(String subsystem) {
    set(subsystem, SubsystemState.UP, "works", "", Map.of());
  }

  void set(
      String subsystem,
      SubsystemState state,
      String summary,
      String action,
      Map<String, Double> measurements) {
    status =
        new SubsystemStatus(
            subsystem, state, summary, action, Instant.parse("2026-12-01T08:00:00Z"), measurements);
  }

  @Override
  public SubsystemStatus status() {
    return status;
  }
}
