package io.bulwark.findings.internal;

import io.bulwark.api.health.Finding;
import io.bulwark.web.api.ApiJson;
import java.util.List;
import java.util.Map;

/**
 * Findings as CSV (RFC 4180, UTF-8, CRLF): one row per finding with its workflow. A field that a
 * spreadsheet would run as a formula (it starts with =, +, -, @, a tab or a carriage return) is
 * written with a leading apostrophe, so an exporter's summary cannot become code on the reader's
 * desk. Numbers (a GPU index of -1) are left as they are.
 */
final class FindingExport {
  static final List<String> COLUMNS =
      List.of(
          "id",
          "kind",
          "node",
          "gpu",
          "gpuUuid",
          "severity",
          "state",
          "firstSeen",
          "lastSeen",
          "resolvedAt",
          "summary",
          "recommendedAction",
          "acknowledgedBy",
          "assignee",
          "snoozedUntil");

  private FindingExport() {}

  static String csv(List<Finding> findings, Map<String, Note> notes) {
    StringBuilder out = new StringBuilder(256 + findings.size() * 256);
    out.append(String.join(",", COLUMNS)).append("\r\n");
    for (Finding f : findings) {
      Note n = notes.getOrDefault(f.id(), Note.empty(f.id()));
      List<String> row =
          List.of(
              f.id(),
              f.kind(),
              f.node().value(),
              Integer.toString(f.gpu()),
              f.gpuUuid(),
              ApiJson.name(f.severity()),
              ApiJson.name(f.state()),
              f.firstSeen().toString(),
              f.lastSeen().toString(),
              f.resolvedAt() == null ? "" : f.resolvedAt().toString(),
              f.summary(),
              f.recommendedAction(),
              n.acknowledgedBy() == null ? "" : n.acknowledgedBy(),
              n.assignee() == null ? "" : n.assignee(),
              n.snoozedUntil() == null ? "" : n.snoozedUntil().toString());
      for (int i = 0; i < row.size(); i++) {
        if (i > 0) {
          out.append(',');
        }
        out.append(field(row.get(i)));
      }
      out.append("\r\n");
    }
    return out.toString();
  }

  /** One CSV field: quoted when needed, formula-looking text defused. */
  static String field(String value) {
    String v = value;
    if (!v.isEmpty() && "=+-@\t\r".indexOf(v.charAt(0)) >= 0 && !v.matches("-?\\d+(\\.\\d+)?")) {
      v = "'" + v;
    }
    if (v.contains(",") || v.contains("\"") || v.contains("\n") || v.contains("\r")) {
      return "\"" + v.replace("\"", "\"\"") + "\"";
    }
    return v;
  }
}
