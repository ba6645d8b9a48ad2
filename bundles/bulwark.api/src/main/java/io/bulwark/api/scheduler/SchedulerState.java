package io.bulwark.api.scheduler;

/** Where a node stands for its scheduler, in the terms remediation needs. */
public enum SchedulerState {
  /** Takes new work (idle, mixed or allocated). */
  AVAILABLE,
  /** Takes no new work; some work still runs on it. */
  DRAINING,
  /** Takes no new work and runs none: safe to reset, power-cycle or re-image. */
  DRAINED,
  /** The scheduler cannot reach it (down, not responding, not ready). */
  DOWN,
  /** The scheduler reports something this connector does not map. */
  UNKNOWN;

  /** Returns the state's name in the API: lower case. */
  public String apiName() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }
}
