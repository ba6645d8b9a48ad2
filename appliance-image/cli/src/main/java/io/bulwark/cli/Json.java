package io.bulwark.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The little JSON the client needs: reads a text into maps (in the order of their keys), lists,
 * strings, numbers ({@code Long} when whole, {@code Double} otherwise), booleans and null, and
 * writes the same back. Strict: anything that is not one JSON value is refused.
 */
final class Json {
  /** How deep objects and arrays may nest. */
  static final int MAX_DEPTH = 128;

  private final String text;
  private int at;
  private int depth;

  private Json(String text) {
    this.text = text;
  }

  /** Signals a text that is not JSON; the message says where. */
  static final class SyntaxException extends Exception {
    private static final long serialVersionUID = 1L;

    SyntaxException(String message) {
      super(message);
    }
  }

  /** Returns the value the text holds. */
  static Object parse(String text) throws SyntaxException {
    Json json = new Json(text);
    json.skipSpace();
    Object value = json.value();
    json.skipSpace();
    if (json.at != text.length()) {
      throw json.error("text after the value");
    }
    return value;
  }

  /** Returns the value as JSON text. */
  static String write(Object value) {
    StringBuilder out = new StringBuilder();
    write(value, out);
    return out.toString();
  }

  private static void write(Object value, StringBuilder out) {
    if (value == null) {
      out.append("null");
    } else if (value instanceof String s) {
      quote(s, out);
    } else if (value instanceof Boolean || value instanceof Long || value instanceof Integer) {
      out.append(value);
    } else if (value instanceof Number n) {
      double d = n.doubleValue();
      out.append(Double.isFinite(d) ? n.toString() : "null");
    } else if (value instanceof Map<?, ?> map) {
      out.append('{');
      boolean first = true;
      for (Map.Entry<?, ?> e : map.entrySet()) {
        if (!first) {
          out.append(',');
        }
        first = false;
        quote(String.valueOf(e.getKey()), out);
        out.append(':');
        write(e.getValue(), out);
      }
      out.append('}');
    } else if (value instanceof List<?> list) {
      out.append('[');
      for (int i = 0; i < list.size(); i++) {
        if (i > 0) {
          out.append(',');
        }
        write(list.get(i), out);
      }
      out.append(']');
    } else {
      throw new IllegalArgumentException("not a JSON value: " + value.getClass().getName());
    }
  }

  private static void quote(String s, StringBuilder out) {
    out.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        default -> {
          if (c < 0x20 || c == 0x2028 || c == 0x2029) {
            out.append(String.format("\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    out.append('"');
  }

  private Object value() throws SyntaxException {
    if (at >= text.length()) {
      throw error("the text ends where a value should be");
    }
    char c = text.charAt(at);
    switch (c) {
      case '{':
        return object();
      case '[':
        return array();
      case '"':
        return string();
      case 't':
        return literal("true", Boolean.TRUE);
      case 'f':
        return literal("false", Boolean.FALSE);
      case 'n':
        return literal("null", null);
      default:
        if (c == '-' || (c >= '0' && c <= '9')) {
          return number();
        }
        throw error("unexpected '" + c + "'");
    }
  }

  private Map<String, Object> object() throws SyntaxException {
    enter();
    at++;
    Map<String, Object> map = new LinkedHashMap<>();
    skipSpace();
    if (peek() == '}') {
      at++;
      depth--;
      return map;
    }
    while (true) {
      skipSpace();
      if (peek() != '"') {
        throw error("a key (a string) should be here");
      }
      String key = string();
      skipSpace();
      expect(':');
      skipSpace();
      map.put(key, value());
      skipSpace();
      char c = next();
      if (c == '}') {
        depth--;
        return map;
      }
      if (c != ',') {
        throw error("',' or '}' should be here");
      }
    }
  }

  private List<Object> array() throws SyntaxException {
    enter();
    at++;
    List<Object> list = new ArrayList<>();
    skipSpace();
    if (peek() == ']') {
      at++;
      depth--;
      return list;
    }
    while (true) {
      skipSpace();
      list.add(value());
      skipSpace();
      char c = next();
      if (c == ']') {
        depth--;
        return list;
      }
      if (c != ',') {
        throw error("',' or ']' should be here");
      }
    }
  }

  private String string() throws SyntaxException {
    at++;
    StringBuilder s = new StringBuilder();
    while (true) {
      char c = next();
      if (c == '"') {
        return s.toString();
      }
      if (c == '\\') {
        char e = next();
        switch (e) {
          case '"', '\\', '/' -> s.append(e);
          case 'b' -> s.append('\b');
          case 'f' -> s.append('\f');
          case 'n' -> s.append('\n');
          case 'r' -> s.append('\r');
          case 't' -> s.append('\t');
          case 'u' -> {
            if (at + 4 > text.length()) {
              throw error("a \\u escape is cut short");
            }
            try {
              s.append((char) Integer.parseInt(text.substring(at, at + 4), 16));
            } catch (NumberFormatException ex) {
              throw error("a \\u escape is not hexadecimal");
            }
            at += 4;
          }
          default -> throw error("unknown escape \\" + e);
        }
      } else if (c < 0x20) {
        throw error("a control character in a string");
      } else {
        s.append(c);
      }
    }
  }

  private Object number() throws SyntaxException {
    int start = at;
    if (peek() == '-') {
      at++;
    }
    digits();
    boolean whole = true;
    if (peek() == '.') {
      at++;
      digits();
      whole = false;
    }
    if (peek() == 'e' || peek() == 'E') {
      at++;
      if (peek() == '+' || peek() == '-') {
        at++;
      }
      digits();
      whole = false;
    }
    String n = text.substring(start, at);
    if (whole) {
      try {
        return Long.parseLong(n);
      } catch (NumberFormatException tooLarge) {
        // Falls through to a double.
      }
    }
    return Double.parseDouble(n);
  }

  private void digits() throws SyntaxException {
    int start = at;
    while (at < text.length() && text.charAt(at) >= '0' && text.charAt(at) <= '9') {
      at++;
    }
    if (at == start) {
      throw error("a digit should be here");
    }
  }

  private Object literal(String word, Object value) throws SyntaxException {
    if (!text.startsWith(word, at)) {
      throw error("unexpected '" + text.charAt(at) + "'");
    }
    at += word.length();
    return value;
  }

  private void enter() throws SyntaxException {
    if (++depth > MAX_DEPTH) {
      throw error("nested deeper than " + MAX_DEPTH);
    }
  }

  private void skipSpace() {
    while (at < text.length()) {
      char c = text.charAt(at);
      if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
        return;
      }
      at++;
    }
  }

  private char peek() {
    return at < text.length() ? text.charAt(at) : '\0';
  }

  private char next() throws SyntaxException {
    if (at >= text.length()) {
      throw error("the text ends too early");
    }
    return text.charAt(at++);
  }

  private void expect(char c) throws SyntaxException {
    if (next() != c) {
      at--;
      throw error("'" + c + "' should be here");
    }
  }

  private SyntaxException error(String what) {
    return new SyntaxException("not JSON at character " + (at + 1) + ": " + what);
  }
}
