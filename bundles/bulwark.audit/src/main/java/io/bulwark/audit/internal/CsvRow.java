package io.bulwark.audit.internal;

import io.bulwark.lib.files.SpreadsheetCsv;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Writes audit records as CSV rows through {@link SpreadsheetCsv} (RFC 4180; a field that a
 * spreadsheet would run as a formula, starting with {@code = + - @}, tab or CR, is prefixed with an
 * apostrophe and quoted). Details are the canonical JSON object of the record.
 */
final class CsvRow {
  static final String HEADER =
      "sequence,time,actor,source,action,target,outcome,details,previous_hash,hash,hmac";

  private CsvRow() {}

  static byte[] header() {
    return (HEADER + "\r\n").getBytes(StandardCharsets.UTF_8);
  }

  static byte[] of(StoredRecord r) {
    return row(
        Long.toString(r.sequence()),
        r.at().toString(),
        r.actor(),
        r.source(),
        r.action(),
        r.target(),
        r.outcome().name(),
        CanonicalJson.object(r.details()),
        r.previousHash(),
        r.hash(),
        r.hmac());
  }

  /** Returns the row for a line that is not a record: its text, with where it was, in details. */
  static byte[] unreadable(long offset, byte[] line, int length) {
    String text =
        line == null ? "(too long to show)" : new String(line, 0, length, StandardCharsets.UTF_8);
    return row(
        "",
        "",
        "",
        "",
        "",
        "",
        "",
        "unreadable line at byte offset " + offset + ": " + text,
        "",
        "",
        "");
  }

  static byte[] row(String... fields) {
    return SpreadsheetCsv.line(Arrays.asList(fields)).getBytes(StandardCharsets.UTF_8);
  }

  static String field(String value) {
    return SpreadsheetCsv.cell(value);
  }
}
