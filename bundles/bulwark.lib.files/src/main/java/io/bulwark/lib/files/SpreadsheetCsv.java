package io.bulwark.lib.files;

import java.util.List;

/**
 * Writes CSV that a spreadsheet opens as data, never as code: RFC 4180 lines (comma-separated, CRLF
 * ends, quotes doubled), and every text cell a spreadsheet would run as a formula, one that starts
 * with {@code =}, {@code +}, {@code -}, {@code @}, a tab or a carriage return, prefixed with an
 * apostrophe and quoted, as OWASP's CSV injection rule asks. A cell holding a comma, a semicolon
 * (the separator of some spreadsheet locales), a quote or a line break is quoted too, so that no
 * part of it can start a cell of its own. Whole numbers passed as numbers stay numbers ({@code
 * -1}). Used by every CSV the appliance exports (the audit log, the findings). Static helpers;
 * thread-safe.
 */
public final class SpreadsheetCsv {
  /** The characters with which a spreadsheet starts a formula. */
  static final String FORMULA_STARTS = "=+-@\t\r";

  private SpreadsheetCsv() {}

  /**
   * Returns one text cell as it is written.
   *
   * @param text the cell's text; null is an empty cell
   */
  public static String cell(String text) {
    if (text == null || text.isEmpty()) {
      return "";
    }
    boolean formula = FORMULA_STARTS.indexOf(text.charAt(0)) >= 0;
    String v = formula ? "'" + text : text;
    if (formula || needsQuotes(v)) {
      return '"' + v.replace("\"", "\"\"") + '"';
    }
    return v;
  }

  /**
   * Returns one line: the cells separated by commas, ended by CRLF. A {@link Long}, {@link
   * Integer}, {@link Short} or {@link Byte} is written as the number; anything else as the text of
   * {@link String#valueOf(Object)} through {@link #cell}; null as an empty cell.
   */
  public static String line(List<?> cells) {
    StringBuilder out = new StringBuilder(cells.size() * 16 + 2);
    for (int i = 0; i < cells.size(); i++) {
      if (i > 0) {
        out.append(',');
      }
      Object c = cells.get(i);
      if (c instanceof Long || c instanceof Integer || c instanceof Short || c instanceof Byte) {
        out.append(c);
      } else {
        out.append(cell(c == null ? null : String.valueOf(c)));
      }
    }
    return out.append("\r\n").toString();
  }

  private static boolean needsQuotes(String v) {
    for (int i = 0; i < v.length(); i++) {
      char c = v.charAt(i);
      if (c == ',' || c == ';' || c == '"' || c == '\r' || c == '\n') {
        return true;
      }
    }
    return false;
  }
}
