package io.bulwark.audit.internal;

import io.bulwark.api.audit.AuditEvent;
import io.bulwark.api.audit.AuditOutcome;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import javax.crypto.Mac;

/**
 * Keeps the audit log's anchor (the HMAC-sealed sequence and hash of its last record) and compares
 * the log with it: at opening, for records cut from the end or an anchor that was replaced or
 * removed, and on every verification. What it finds at opening is returned as events for the log to
 * record; a cut log stays reported as such until the log is restored. Callers hold the log's append
 * lock.
 */
final class AnchorWatch {
  static final String TRUNCATED_ACTION = "audit.truncated";
  static final String ANCHOR_ACTION = "audit.anchor-untrusted";
  private static final System.Logger LOG = System.getLogger(AnchorWatch.class.getName());

  private final AuditAnchor anchor;
  private final Path logFile;
  private volatile String truncation;
  private volatile long truncatedAt;

  AnchorWatch(Path logFile) {
    this.logFile = logFile;
    this.anchor = new AuditAnchor(logFile);
  }

  /** What was cut from the end of the log when it opened, or null. */
  String truncation() {
    return truncation;
  }

  /** The first sequence number missing from a cut log (valid when {@link #truncation} is set). */
  long truncatedAt() {
    return truncatedAt;
  }

  /** Moves the anchor to the log's last record; a failure is logged, the record stays durable. */
  void move(AuditFile log, Mac mac) {
    try {
      anchor.write(log.lastSequence(), log.lastHash(), mac);
    } catch (IOException e) {
      LOG.log(
          Level.WARNING,
          "Audit record {0} is durable, but the anchor {1} could not be moved to it ({2}): cutting"
              + " records from the end of the log would go unnoticed until it can. Check the"
              + " audit folder.",
          log.lastSequence(),
          anchor.file(),
          e.toString());
    }
  }

  /**
   * Compares the opened log with its anchor and returns the events to record: records cut from the
   * end, or an anchor that cannot be trusted. A missing anchor is made for a log that has none.
   */
  List<AuditEvent> opening(AuditFile log, Mac mac) {
    List<AuditEvent> problems = new ArrayList<>();
    AuditAnchor.Mark mark;
    try {
      mark = anchor.read(mac);
    } catch (AuditAnchor.UntrustedAnchorException e) {
      problems.add(event(ANCHOR_ACTION, Map.of("problem", e.getMessage())));
      return problems;
    }
    if (mark == null) {
      if (log.lastSequence() > 0) {
        // A log with records and no anchor: the anchor was deleted (perhaps to hide records cut
        // from the end) or the log comes from before anchors. Either way it is recorded.
        problems.add(
            event(
                ANCHOR_ACTION,
                Map.of(
                    "problem",
                    "the anchor "
                        + anchor.file()
                        + " is missing although the log holds "
                        + log.lastSequence()
                        + " records: records cut from its end before now cannot be ruled out")));
        move(log, mac);
      }
      return problems;
    }
    long reported = log.torn() != null ? log.torn().sequence() : log.lastSequence();
    if (mark.sequence() > reported) {
      truncation = cutDescription(mark.sequence(), log.lastSequence());
      truncatedAt = log.lastSequence() + 1;
      LOG.log(Level.ERROR, "AUDIT LOG TAMPERING: {0}", truncation);
      Map<String, String> details = new TreeMap<>();
      details.put("anchorSequence", Long.toString(mark.sequence()));
      details.put("lastSequence", Long.toString(log.lastSequence()));
      details.put("problem", truncation);
      problems.add(event(TRUNCATED_ACTION, details));
    } else if (mark.sequence() == log.lastSequence() && !mark.hash().equals(log.lastHash())) {
      problems.add(
          event(
              ANCHOR_ACTION,
              Map.of(
                  "problem",
                  "the anchor names record "
                      + mark.sequence()
                      + " with another hash than the log's last record: it was replaced")));
    }
    return problems;
  }

  /** Returns what was cut from the end of the log now, or null; null {@code mac}: not checked. */
  String cutNow(AuditFile log, Mac mac) {
    if (mac == null) {
      return null;
    }
    try {
      AuditAnchor.Mark mark = anchor.read(mac);
      if (mark != null && mark.sequence() > log.lastSequence()) {
        return cutDescription(mark.sequence(), log.lastSequence());
      }
      return null;
    } catch (AuditAnchor.UntrustedAnchorException e) {
      return e.getMessage();
    }
  }

  private static String cutDescription(long anchored, long last) {
    return "records "
        + (last + 1)
        + " to "
        + anchored
        + " were cut from the end of the audit log: its anchor names record "
        + anchored
        + " but the log ends at record "
        + last
        + ". Restore the log from an export or a backup and investigate who had access.";
  }

  private AuditEvent event(String action, Map<String, String> details) {
    return new AuditEvent(
        "system", "local", action, logFile.toString(), AuditOutcome.FAILURE, details);
  }
}
