package io.bulwark.api.remediation;

import java.util.Locale;

/** Where one step of a run stands. */
public enum StepStatus {
  /** Not reached yet. */
  PENDING,
  /** Being carried out: recorded before it is acted on. */
  RUNNING,
  /** Waiting for a condition (a drain to finish, a soak to pass). */
  WAITING,
  /** Done. */
  DONE,
  /** Not applicable, or not available on this node. */
  SKIPPED,
  /** It failed; the run stopped here. */
  FAILED,
  /** A dry-run: shown, not done. */
  WOULD_RUN,
  /** The run ended before this step (cancelled). */
  CANCELLED;

  /** Returns the status's name in the API: lower case, '-' for '_'. */
  public String apiName() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }
}
