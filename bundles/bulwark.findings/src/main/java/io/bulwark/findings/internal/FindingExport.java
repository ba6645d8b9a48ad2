package io.bulwark.findings.internal;

import io.bulwark.api.health.Finding;
import io.bulwark.lib.files.SpreadsheetCsv;
import io.bulwark.web.api.ApiJson;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Findings as CSV (RFC 4180, UTF-8, CRLF) through {@link SpreadsheetCsv}: one row per finding with
 * its workflow. A text field that a spreadsheet would run as a formula (it starts with =, +, -, @,
 * a tab or a carriage return) is written with a leading apostrophe and quoted, so an exporter's
 * summary cannot become code on the reader's desk. The GPU index is a number (-1 for the node).
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
      out.append(
          SpreadsheetCsv.line(
              Arrays.asList(
                  f.id(),
                  f.kind(),
                  f.node().value(),
                  f.gpu(),
                  f.gpuUuid(),
                  ApiJson.name(f.severity()),
                  ApiJson.name(f.state()),
                  f.firstSeen().toString(),
                  f.lastSeen().toString(),
                  f.resolvedAt() == null ? "" : f.resolvedAt().toString(),
                  f.summary(),
                  f.recommendedAction(),
                  n.acknowledgedBy(),
                  n.assignee(),
                  n.snoozedUntil() == null ? "" : n.snoozedUntil().toString())));
    }
    return out.toString();
  }
}
