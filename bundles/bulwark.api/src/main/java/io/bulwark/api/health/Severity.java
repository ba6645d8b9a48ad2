package io.bulwark.api.health;

/**
 * How bad a finding is. {@link #CRITICAL} marks the GPU unhealthy: the capacity account counts it
 * as lost. {@link #WARNING} costs performance but the GPU still serves; {@link #INFO} is for the
 * record only.
 */
public enum Severity {
  INFO,
  WARNING,
  CRITICAL
}
