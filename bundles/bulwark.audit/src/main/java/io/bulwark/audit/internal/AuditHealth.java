package io.bulwark.audit.internal;

import io.bulwark.api.system.SubsystemState;
import io.bulwark.api.system.SubsystemStatus;
import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The audit log's report of itself as the {@code audit} subsystem: DOWN when records cannot be
 * written (the log cannot open, a write failed, or the routine part of the quota is used up),
 * DEGRADED from the warning share of the quota on (75% by default, as the STIG asks) and when
 * records were found cut from the log's end, UP otherwise; with what to do and the gauges behind
 * it. Reads only what the log keeps in memory. Thread-safe.
 */
final class AuditHealth {
  static final String SUBSYSTEM = "audit";

  private final AuditOptions options;
  private final Clock clock;
  private SubsystemState state = SubsystemState.UP;
  private Instant since;

  AuditHealth(AuditOptions options, Clock clock) {
    this.options = options;
    this.clock = clock;
    this.since = clock.instant();
  }

  /**
   * Returns the report for the open log (null if it could not be opened), the reason the last
   * record was refused (null after a success) and the tampering found at opening (null if none).
   */
  synchronized SubsystemStatus status(AuditFile log, String lastRefusal, String truncation) {
    Map<String, Double> m = new LinkedHashMap<>();
    m.put("bulwark_audit_quota_bytes", (double) options.maxBytes());
    m.put("bulwark_audit_reserve_bytes", (double) options.reserveBytes());
    m.put("bulwark_audit_warn_ratio", options.warnPercent() / 100.0);
    SubsystemState next;
    String summary;
    String action;
    String broken = log == null ? null : log.broken();
    if (log == null || broken != null) {
      next = SubsystemState.DOWN;
      summary =
          "audited actions are refused: "
              + (broken != null ? broken : lastRefusal != null ? lastRefusal : "the log is closed");
      action = "Fix what the summary names (disk, permissions, secret store), then restart";
    } else {
      long size = log.size();
      m.put("bulwark_audit_bytes", (double) size);
      m.put("bulwark_audit_records", (double) log.lastSequence());
      m.put("bulwark_audit_used_ratio", size / (double) options.maxBytes());
      int percent = (int) (100 * size / options.maxBytes());
      String exportAndRaise =
          "Export the log (Audit page, or GET /api/v1/audit/export) and keep the export, then"
              + " raise the quota (BULWARK_AUDIT_MAX_BYTES, or maxBytes of io.bulwark.audit) and"
              + " restart";
      if (log.routineFull()) {
        next = SubsystemState.DOWN;
        summary =
            "the audit log is full ("
                + AuditOptions.size(size)
                + " of "
                + AuditOptions.size(options.maxBytes())
                + "): audited actions are refused; administrators can still log in, log out,"
                + " unlock accounts, pull the remediation kill switch and export it (the last "
                + AuditOptions.size(options.reserveBytes())
                + " is kept for that)";
        action = exportAndRaise;
      } else if (lastRefusal != null) {
        next = SubsystemState.DOWN;
        summary = "the last record could not be written: " + lastRefusal;
        action = "Fix what the summary names; the next record written clears this";
      } else if (truncation != null) {
        next = SubsystemState.DEGRADED;
        summary = "records were cut from the end of the log: " + truncation;
        action =
            "Treat it as tampering: keep the log and its anchor as evidence, verify the exports"
                + " kept off the appliance";
      } else if (size >= options.warnBytes()) {
        next = SubsystemState.DEGRADED;
        summary =
            "the audit log holds "
                + AuditOptions.size(size)
                + ", "
                + percent
                + "% of its "
                + AuditOptions.size(options.maxBytes())
                + " quota (warning from "
                + options.warnPercent()
                + "%); audited actions will be refused when it is full";
        action = exportAndRaise;
      } else {
        next = SubsystemState.UP;
        summary =
            log.lastSequence()
                + " records, "
                + AuditOptions.size(size)
                + " ("
                + percent
                + "% of the quota)";
        action = "";
      }
    }
    if (next != state) {
      state = next;
      since = clock.instant();
    }
    return new SubsystemStatus(SUBSYSTEM, next, summary, action, since, m);
  }
}
