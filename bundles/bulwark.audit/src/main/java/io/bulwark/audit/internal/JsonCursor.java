package io.bulwark.audit.internal;

import java.util.TreeMap;

/**
 * Reads the canonical JSON that {@link CanonicalJson} writes, strictly: the fields must come in the
 * expected order with no white space, so that anything else is reported as a malformed record
 * rather than guessed at. Used when the log is opened, searched, verified and exported.
 */
final class JsonCursor {
  private final String text;
  private int pos;

  JsonCursor(String text) {
    this.text = text;
  }

  void expect(char c) {
    if (pos >= text.length() || text.charAt(pos) != c) {
      throw fail("expected '" + c + "'");
    }
    pos++;
  }

  /** Reads {@code "name":} (after a comma unless it is the first field). */
  void field(String name, boolean first) {
    if (!first) {
      expect(',');
    }
    String found = string();
    if (!found.equals(name)) {
      throw fail("expected field \"" + name + "\" but found \"" + found + "\"");
    }
    expect(':');
  }

  long number() {
    int start = pos;
    while (pos < text.length() && Character.isDigit(text.charAt(pos)) && pos - start < 19) {
      pos++;
    }
    if (start == pos) {
      throw fail("expected a number");
    }
    try {
      return Long.parseLong(text, start, pos, 10);
    } catch (NumberFormatException e) {
      throw fail("number out of range");
    }
  }

  String string() {
    expect('"');
    StringBuilder s = new StringBuilder();
    while (true) {
      if (pos >= text.length()) {
        throw fail("unterminated string");
      }
      char c = text.charAt(pos++);
      if (c == '"') {
        return s.toString();
      }
      if (c < 0x20) {
        throw fail("unescaped control character in a string");
      }
      if (c != '\\') {
        s.append(c);
        continue;
      }
      if (pos >= text.length()) {
        throw fail("unterminated escape");
      }
      char e = text.charAt(pos++);
      switch (e) {
        case '"', '\\', '/' -> s.append(e);
        case 'b' -> s.append('\b');
        case 'f' -> s.append('\f');
        case 'n' -> s.append('\n');
        case 'r' -> s.append('\r');
        case 't' -> s.append('\t');
        case 'u' -> s.append(unicode());
        default -> throw fail("unknown escape \\" + e);
      }
    }
  }

  TreeMap<String, String> strings() {
    TreeMap<String, String> values = new TreeMap<>();
    expect('{');
    if (peek() == '}') {
      pos++;
      return values;
    }
    do {
      String key = string();
      expect(':');
      if (values.put(key, string()) != null) {
        throw fail("duplicate detail \"" + key + "\"");
      }
    } while (next(','));
    expect('}');
    return values;
  }

  void end() {
    if (pos != text.length()) {
      throw fail("unexpected text after the record");
    }
  }

  private char unicode() {
    if (pos + 4 > text.length()) {
      throw fail("short \\u escape");
    }
    int value = 0;
    for (int i = 0; i < 4; i++) {
      int digit = Character.digit(text.charAt(pos++), 16);
      if (digit < 0) {
        throw fail("bad \\u escape");
      }
      value = value * 16 + digit;
    }
    return (char) value;
  }

  private boolean next(char c) {
    if (peek() == c) {
      pos++;
      return true;
    }
    return false;
  }

  private char peek() {
    return pos < text.length() ? text.charAt(pos) : 0;
  }

  private MalformedRecordException fail(String what) {
    return new MalformedRecordException(what + " at column " + (pos + 1));
  }
}
