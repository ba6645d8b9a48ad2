package io.bulwark.health.dcgm.internal;

import io.bulwark.api.health.Severity;

/**
 * What an XID asks of the operator, from the bucket of NVIDIA's XID catalogue ({@link XidBucket}),
 * ordered from the most to the least disruptive: reboot the node, reset the GPU (both critical: the
 * GPU does not serve until then), service it while it still serves (report it to NVIDIA, update,
 * check), an XID not in the catalogue, faults of the application alone, and codes NVIDIA says to
 * ignore. Used by the XID detector.
 */
enum XidResolution {
  REBOOT_NODE(Severity.CRITICAL, "reboot node"),
  RESET_GPU(Severity.CRITICAL, "reset GPU"),
  SERVICE(Severity.WARNING, "service GPU"),
  UNKNOWN(Severity.WARNING, "not in the catalogue"),
  APPLICATION(Severity.INFO, "application"),
  IGNORED(Severity.INFO, "ignored");

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
