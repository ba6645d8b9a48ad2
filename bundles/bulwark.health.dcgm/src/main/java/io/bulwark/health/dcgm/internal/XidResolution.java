package io.bulwark.health.dcgm.internal;

import io.bulwark.api.health.Severity;

/**
 * What an XID asks of the operator, after the immediate-action buckets of NVIDIA's XID catalog for
 * Ampere and Hopper, ordered from the most to the least disruptive: reboot the node, reset the GPU
 * (both critical: the GPU does not serve until then), service it while it still serves, reset it at
 * the next drain, restart the application, an XID Bulwark does not know, and faults of the
 * application alone. Used by the XID detector.
 */
enum XidResolution {
  REBOOT_NODE(Severity.CRITICAL, "reboot node"),
  RESET_GPU(Severity.CRITICAL, "reset GPU"),
  SERVICE(Severity.WARNING, "service GPU"),
  RESET_AT_DRAIN(Severity.WARNING, "reset GPU at next drain"),
  RESTART_APP(Severity.WARNING, "restart application"),
  UNKNOWN(Severity.WARNING, "unclassified"),
  APPLICATION(Severity.INFO, "application");

  private final Severity severity;
  private final String label;

  XidResolution(Severity severity, String label) {
    this.severity = severity;
    this.label = label;
  }

  Severity severity() {
    return severity;
  }

  /** The resolution in words, as the evidence's "class" shows it. */
  String label() {
    return label;
  }
}
