package io.bulwark.api.remediation;

import java.util.Locale;

/** Where a remediation run stands. */
public enum RunState {
  /** Waiting for a guardrail to let it start (isolation limits, cooldown, kill switch…). */
  HELD,
  /** Its steps are being carried out. */
  RUNNING,
  /** A destructive step waits for a person's approval. */
  AWAITING_APPROVAL,
  /** Every step done: the node is back in service (or, for a dry-run, every step was shown). */
  SUCCEEDED,
  /** A step failed: the node stays isolated and the run went to a person with its evidence. */
  FAILED,
  /** The node was sent to a person without being touched (flapping, a circuit breaker). */
  ESCALATED,
  /** An operator cancelled it. */
  CANCELLED;

  /** Returns true if the run has ended. */
  public boolean isFinal() {
    return this == SUCCEEDED || this == FAILED || this == ESCALATED || this == CANCELLED;
  }

  /** Returns the state's name in the API: lower case, '-' for '_'. */
  public String apiName() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }
}
