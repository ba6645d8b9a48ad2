package io.bulwark.audit.internal;

import java.util.Map;

/**
 * Writes the canonical JSON of audit records: no white space, fields in the order the caller writes
 * them, strings escaped one way only (the short escapes for quote, backslash and {@code \b \f \n \r
 * \t}, a backslash-u escape (four hex digits) for other control characters, DEL, U+2028, U+2029 and
 * unpaired surrogates; everything else as UTF-8). The same record therefore always gives the same
 * bytes, which is what the hash chain needs. Records are read back with Jackson ({@link
 * JsonCursor}); they are written here because neither Jackson's nor Parsson's generator escapes
 * unpaired surrogates (Jackson's sees one char at a time and cannot tell a lone surrogate from half
 * a pair; Parsson's escapes control characters only), and the hashes of every log already written
 * are computed over this form.
 */
final class CanonicalJson {
  private static final char[] HEX = "0123456789abcdef".toCharArray();

  private final StringBuilder out = new StringBuilder(256);
  private boolean first = true;

  CanonicalJson() {
    out.append('{');
  }

  CanonicalJson number(String name, long value) {
    name(name);
    out.append(value);
    return this;
  }

  CanonicalJson string(String name, String value) {
    name(name);
    quote(out, value);
    return this;
  }

  /** Writes {@code values} as an object of strings; the map must already be sorted by key. */
  CanonicalJson strings(String name, Map<String, String> values) {
    name(name);
    object(out, values);
    return this;
  }

  /** Returns {@code values} (sorted by key) as a canonical JSON object of strings. */
  static String object(Map<String, String> values) {
    StringBuilder s = new StringBuilder();
    object(s, values);
    return s.toString();
  }

  private static void object(StringBuilder out, Map<String, String> values) {
    out.append('{');
    boolean first = true;
    for (Map.Entry<String, String> e : values.entrySet()) {
      if (!first) {
        out.append(',');
      }
      first = false;
      quote(out, e.getKey());
      out.append(':');
      quote(out, e.getValue());
    }
    out.append('}');
  }

  /** Returns the object written so far, closed. */
  String close() {
    return out + "}";
  }

  private void name(String name) {
    if (!first) {
      out.append(',');
    }
    first = false;
    quote(out, name);
    out.append(':');
  }

  static void quote(StringBuilder out, String s) {
    out.append('"');
    int n = s.length();
    for (int i = 0; i < n; i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\b' -> out.append("\\b");
        case '\f' -> out.append("\\f");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        default -> {
          if (c < 0x20 || c == 0x7f || c == '\u2028' || c == '\u2029') {
            unicodeEscape(out, c);
          } else if (Character.isHighSurrogate(c)
              && i + 1 < n
              && Character.isLowSurrogate(s.charAt(i + 1))) {
            out.append(c).append(s.charAt(++i));
          } else if (Character.isSurrogate(c)) {
            unicodeEscape(out, c);
          } else {
            out.append(c);
          }
        }
      }
    }
    out.append('"');
  }

  private static void unicodeEscape(StringBuilder out, char c) {
    out.append("\\u")
        .append(HEX[(c >> 12) & 0xf])
        .append(HEX[(c >> 8) & 0xf])
        .append(HEX[(c >> 4) & 0xf])
        .append(HEX[c & 0xf]);
  }
}
