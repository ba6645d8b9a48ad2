package io.bulwark.health.dcgm.internal;

import io.bulwark.api.health.Severity;

/**
 * What an XID code says about the GPU: a hardware fault (the GPU is bad), an application fault (the
 * job is bad, the GPU is fine), or a code Bulwark does not classify. Used by the XID detector.
 */
enum XidClass {
  HARDWARE(Severity.CRITICAL, "hardware"),
  UNKNOWN(Severity.WARNING, "unclassified"),
  APPLICATION(Severity.INFO, "application");

  private final Severity severity;
  private final String label;

  XidClass(Severity severity, String label) {
    this.severity = severity;
    this.label = label;
  }

  Severity severity() {
    return severity;
  }

  String label() {
    return label;
  }
}
