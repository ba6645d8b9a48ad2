package io.bulwark.web.internal;

import io.bulwark.api.health.Finding;
import io.bulwark.api.health.GpuCapacity;
import io.bulwark.api.health.Severity;
import java.util.Collection;
import java.util.Locale;

/**
 * The health of one GPU as the fleet grid colours it. {@link #UNKNOWN}: its node does not report,
 * so nothing is known of it now (never shown healthy); {@link #MISSING}: its node reports but the
 * GPU is absent from the latest scrape; otherwise the worst open finding on it decides ({@link
 * #CRITICAL}, {@link #WARNING}), and a GPU with no open warning or critical finding is {@link
 * #HEALTHY}.
 */
enum GpuHealth {
  HEALTHY,
  WARNING,
  CRITICAL,
  MISSING,
  UNKNOWN;

  /**
   * Returns the colour of a GPU from its state in the capacity account ({@code capacity}, null for
   * a GPU the account does not hold yet), whether telemetry lists it, and the open findings on it
   * or its node, so that the grid never contradicts the account: unknown there is unknown here,
   * failed there is critical (or missing) here, degraded there is at least a warning here.
   */
  static GpuHealth of(GpuCapacity capacity, boolean reporting, Collection<Finding> openFindings) {
    if (capacity == null) {
      return of(true, reporting, openFindings);
    }
    if (capacity.unknown()) {
      return UNKNOWN;
    }
    GpuHealth byFindings = of(true, reporting, openFindings);
    if (!capacity.healthy()) {
      return byFindings == MISSING ? MISSING : CRITICAL;
    }
    if (capacity.degraded() && byFindings == HEALTHY) {
      return WARNING;
    }
    return byFindings == CRITICAL ? WARNING : byFindings;
  }

  /**
   * Returns the health of a GPU from whether its node reports, whether telemetry lists the GPU, and
   * the open findings on it.
   */
  static GpuHealth of(boolean nodeReporting, boolean reporting, Collection<Finding> openFindings) {
    if (!nodeReporting) {
      return UNKNOWN;
    }
    if (!reporting) {
      return MISSING;
    }
    Severity worst = worst(openFindings);
    if (worst == Severity.CRITICAL) {
      return CRITICAL;
    }
    return worst == Severity.WARNING ? WARNING : HEALTHY;
  }

  /** Returns the worst severity among the findings, or null if there are none. */
  static Severity worst(Collection<Finding> findings) {
    Severity worst = null;
    for (Finding f : findings) {
      if (worst == null || f.severity().compareTo(worst) > 0) {
        worst = f.severity();
      }
    }
    return worst;
  }

  /** The name the API and the UI use. */
  String label() {
    return name().toLowerCase(Locale.ROOT);
  }
}
