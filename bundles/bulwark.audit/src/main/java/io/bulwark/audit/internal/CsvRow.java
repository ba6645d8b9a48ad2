package io.bulwark.audit.internal;

import java.nio.charset.StandardCharsets;

/**
 * Writes audit records as CSV rows (RFC 4180: comma-separated, CRLF line ends, a field quoted when
 * it holds a comma, quote, CR or LF, quotes doubled). A field that a spreadsheet would run as a
 * formula (starting with {@code = + - @}, tab or CR) is prefixed with an apostrophe. Details are
 * the canonical JSON object of the record.
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
    StringBuilder out = new StringBuilder(256);
    for (int i = 0; i < fields.length; i++) {
      if (i > 0) {
        out.append(',');
      }
      out.append(field(fields[i]));
    }
    return out.append("\r\n").toString().getBytes(StandardCharsets.UTF_8);
  }

  static String field(String value) {
    String v = value;
    if (!v.isEmpty() && "=+-@\t\r".indexOf(v.charAt(0)) >= 0) {
      v = "'" + v;
    }
    if (v.indexOf(',') < 0 && v.indexOf('"') < 0 && v.indexOf('\r') < 0 && v.indexOf('\n') < 0) {
      return v;
    }
    return "\"" + v.replace("\"", "\"\"") + "\"";
  }
}
