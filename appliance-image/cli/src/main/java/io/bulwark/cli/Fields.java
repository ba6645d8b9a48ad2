package io.bulwark.cli;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Reads the fields of a parsed JSON answer for display, forgiving of what is absent: a missing
 * object is empty, a missing text is "". Everything shown is made safe for a terminal first.
 */
final class Fields {
  private Fields() {}

  /** Returns the value as an object, or an empty one if it is not an object. */
  @SuppressWarnings("unchecked")
  static Map<String, Object> object(Object value) {
    return value instanceof Map<?, ?> map ? (Map<String, Object>) map : Map.of();
  }

  /** Returns the field of {@code value} as an object, or an empty one. */
  static Map<String, Object> object(Object value, String key) {
    return object(object(value).get(key));
  }

  /** Returns the value as an array, or an empty one if it is not an array. */
  @SuppressWarnings("unchecked")
  static List<Object> array(Object value) {
    return value instanceof List<?> list ? (List<Object>) list : List.of();
  }

  /** Returns the field of {@code value} as an array, or an empty one. */
  static List<Object> array(Object value, String key) {
    return array(object(value).get(key));
  }

  /** Returns the field of {@code value} as display text, "" when absent or null. */
  static String text(Object value, String key) {
    return show(object(value).get(key));
  }

  /** Returns true if {@code value} has the field with a value other than null or "". */
  static boolean has(Object value, String key) {
    Object field = object(value).get(key);
    return field != null && !"".equals(field);
  }

  /** Returns the field as a whole number, or {@code otherwise}. */
  static long number(Object value, String key, long otherwise) {
    return object(value).get(key) instanceof Number n ? n.longValue() : otherwise;
  }

  /**
   * Returns a scalar as display text: strings as they are, whole numbers without a decimal point,
   * other numbers with at most three decimals, null as "".
   */
  static String show(Object value) {
    if (value == null) {
      return "";
    }
    if (value instanceof Double d) {
      if (d == Math.rint(d) && Math.abs(d) < 1e15) {
        return Long.toString(d.longValue());
      }
      String s = String.format(Locale.ROOT, "%.3f", d);
      return s.replaceAll("0+$", "").replaceAll("\\.$", "");
    }
    if (value instanceof Map<?, ?> || value instanceof List<?>) {
      return Text.clean(Json.write(value));
    }
    return Text.clean(value.toString());
  }

  /** Returns a fraction (0.95) as a percentage ("95.0%"), or "" when it is not a number. */
  static String percent(Object value, String key) {
    return object(value).get(key) instanceof Number n
        ? String.format(Locale.ROOT, "%.1f%%", n.doubleValue() * 100)
        : "";
  }
}
