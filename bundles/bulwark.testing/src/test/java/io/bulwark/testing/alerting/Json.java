package io.bulwark.testing.alerting;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A small JSON reader for the tests: objects become {@code LinkedHashMap}s, arrays {@code List}s,
 * numbers {@code BigDecimal}s, and {@code null} Java's null.
 */
final class Json {
  private final String text;
  private int at;

  private Json(String text) {
    this.text = text;
  }

  /** Parses {@code text}, which must hold one JSON value and nothing after it but white space. */
  static Object parse(String text) {
    Json json = new Json(text);
    Object value = json.value();
    json.skipSpace();
    if (json.at != text.length()) {
      throw json.error("text after the JSON value");
    }
    return value;
  }

  /** Parses {@code text} as a JSON object. */
  @SuppressWarnings("unchecked")
  static Map<String, Object> object(String text) {
    return (Map<String, Object>) parse(text);
  }

  /** The object member {@code key} of {@code object}, itself an object. */
  @SuppressWarnings("unchecked")
  static Map<String, Object> object(Object object, String key) {
    return (Map<String, Object>) ((Map<String, Object>) object).get(key);
  }

  /** The object member {@code key} of {@code object}, an array. */
  @SuppressWarnings("unchecked")
  static List<Object> array(Object object, String key) {
    return (List<Object>) ((Map<String, Object>) object).get(key);
  }

  /**
   * The JSON type of each member of {@code object}: string, number, boolean, null, object, array.
   */
  @SuppressWarnings("unchecked")
  static Map<String, String> shape(Object object) {
    Map<String, String> shape = new TreeMap<>();
    ((Map<String, Object>) object).forEach((k, v) -> shape.put(k, type(v)));
    return shape;
  }

  static String type(Object value) {
    if (value == null) {
      return "null";
    } else if (value instanceof String) {
      return "string";
    } else if (value instanceof BigDecimal) {
      return "number";
    } else if (value instanceof Boolean) {
      return "boolean";
    } else if (value instanceof Map) {
      return "object";
    } else {
      return "array";
    }
  }

  private Object value() {
    skipSpace();
    if (at >= text.length()) {
      throw error("end of text where a value was expected");
    }
    char c = text.charAt(at);
    switch (c) {
      case '{':
        return objectValue();
      case '[':
        return arrayValue();
      case '"':
        return string();
      case 't':
        return literal("true", Boolean.TRUE);
      case 'f':
        return literal("false", Boolean.FALSE);
      case 'n':
        return literal("null", null);
      default:
        return number();
    }
  }

  private Map<String, Object> objectValue() {
    Map<String, Object> map = new LinkedHashMap<>();
    at++;
    skipSpace();
    if (peek() == '}') {
      at++;
      return map;
    }
    while (true) {
      skipSpace();
      if (peek() != '"') {
        throw error("expected a member name");
      }
      String key = string();
      skipSpace();
      expect(':');
      map.put(key, value());
      skipSpace();
      char c = next();
      if (c == '}') {
        return map;
      } else if (c != ',') {
        throw error("expected , or }");
      }
    }
  }

  private List<Object> arrayValue() {
    List<Object> list = new ArrayList<>();
    at++;
    skipSpace();
    if (peek() == ']') {
      at++;
      return list;
    }
    while (true) {
      list.add(value());
      skipSpace();
      char c = next();
      if (c == ']') {
        return list;
      } else if (c != ',') {
        throw error("expected , or ]");
      }
    }
  }

  private String string() {
    expect('"');
    StringBuilder s = new StringBuilder();
    while (true) {
      char c = next();
      if (c == '"') {
        return s.toString();
      } else if (c == '\\') {
        char e = next();
        switch (e) {
          case 'n' -> s.append('\n');
          case 't' -> s.append('\t');
          case 'r' -> s.append('\r');
          case 'b' -> s.append('\b');
          case 'f' -> s.append('\f');
          case 'u' -> {
            s.append((char) Integer.parseInt(text.substring(at, at + 4), 16));
            at += 4;
          }
          default -> s.append(e);
        }
      } else {
        s.append(c);
      }
    }
  }

  private Object literal(String word, Object value) {
    if (!text.startsWith(word, at)) {
      throw error("expected " + word);
    }
    at += word.length();
    return value;
  }

  private BigDecimal number() {
    int start = at;
    while (at < text.length() && "+-0123456789.eE".indexOf(text.charAt(at)) >= 0) {
      at++;
    }
    if (start == at) {
      throw error("unexpected character");
    }
    return new BigDecimal(text.substring(start, at));
  }

  private void skipSpace() {
    while (at < text.length() && Character.isWhitespace(text.charAt(at))) {
      at++;
    }
  }

  private char peek() {
    return at < text.length() ? text.charAt(at) : '\0';
  }

  private char next() {
    if (at >= text.length()) {
      throw error("unexpected end of text");
    }
    return text.charAt(at++);
  }

  private void expect(char c) {
    if (next() != c) {
      at--;
      throw error("expected " + c);
    }
  }

  private IllegalArgumentException error(String what) {
    return new IllegalArgumentException(what + " at offset " + at + " of: " + text);
  }
}
