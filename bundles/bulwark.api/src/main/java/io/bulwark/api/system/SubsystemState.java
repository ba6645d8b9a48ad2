package io.bulwark.api.system;

/**
 * How well a subsystem works, from the operator's side. Ordered from best to worst, so that the
 * appliance's overall state is the worst of its subsystems'.
 */
public enum SubsystemState {
  /** Works as configured. */
  UP,
  /** Works, but something needs attention soon (e.g. the audit quota is 75% used). */
  DEGRADED,
  /** Does not do its job (e.g. the store refuses writes, no target has been scraped). */
  DOWN;

  /** Returns the worse of this state and {@code other}. */
  public SubsystemState worst(SubsystemState other) {
    return other.ordinal() > ordinal() ? other : this;
  }
}
