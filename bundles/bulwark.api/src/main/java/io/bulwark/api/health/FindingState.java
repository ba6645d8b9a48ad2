package io.bulwark.api.health;

/** Whether a finding still holds ({@link #OPEN}) or has cleared ({@link #RESOLVED}). */
public enum FindingState {
  OPEN,
  RESOLVED
}
