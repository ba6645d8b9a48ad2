package io.bulwark.sim.internal;

import io.vertx.core.json.Json;
import io.vertx.core.json.JsonObject;
import java.math.BigDecimal;
import java.util.List;
import java.util.Locale;

/**
 * The one optional parameter a fault kind takes in a control API request, e.g. {@code xid} of an
 * {@code xid} fault or {@code replaysPerMinute} of a {@code pcie-replay} fault: a number in a range
 * (whole or not, or one of a few allowed values), or one of a few words, held as the word's index.
 * Used by {@link FaultKind} and {@link FaultRequest}.
 *
 * @param allowed the only values accepted, or empty for any in [min, max]
 * @param words the words accepted, in the order of their values, or empty for a number
 */
record FaultParameter(
    String name,
    double min,
    double max,
    double defaultValue,
    boolean whole,
    List<Double> allowed,
    List<String> words) {

  static FaultParameter whole(String name, long min, long max, long defaultValue) {
    return new FaultParameter(name, min, max, defaultValue, true, List.of(), List.of());
  }

  static FaultParameter number(String name, double min, double max, double defaultValue) {
    return new FaultParameter(name, min, max, defaultValue, false, List.of(), List.of());
  }

  static FaultParameter oneOf(String name, long defaultValue, List<Double> allowed) {
    return new FaultParameter(
        name,
        allowed.get(0),
        allowed.get(allowed.size() - 1),
        defaultValue,
        true,
        allowed,
        List.of());
  }

  static FaultParameter word(String name, List<String> words) {
    return new FaultParameter(name, 0, words.size() - 1, 0, true, List.of(), words);
  }

  /**
   * Reads the parameter from a request; absent or null gives the default.
   *
   * @throws IllegalArgumentException naming the parameter and what it must be
   */
  double read(JsonObject json) {
    Object value = json.getValue(name);
    if (value == null) {
      return defaultValue;
    }
    if (!words.isEmpty()) {
      int i = value instanceof String word ? words.indexOf(word) : -1;
      if (i < 0) {
        throw invalid(value);
      }
      return i;
    }
    if (value instanceof Number number) {
      try {
        BigDecimal exact = new BigDecimal(number.toString());
        double v = exact.doubleValue();
        boolean wholeEnough = !whole || exact.stripTrailingZeros().scale() <= 0;
        boolean inRange = allowed.isEmpty() ? v >= min && v <= max : allowed.contains(v);
        if (wholeEnough && inRange && Double.isFinite(v)) {
          return v;
        }
      } catch (NumberFormatException notANumber) {
        // reported below
      }
    }
    throw invalid(value);
  }

  /** Returns the value as the control API shows it: a word, a whole number or a number. */
  Object json(double value) {
    if (!words.isEmpty()) {
      return words.get((int) value);
    }
    return whole ? (Object) (long) value : (Object) value;
  }

  /** Describes what the parameter must be, e.g. "a whole number from 1 to 1000". */
  String expected() {
    if (!words.isEmpty()) {
      return "one of " + String.join(", ", words);
    }
    if (!allowed.isEmpty()) {
      return "one of " + allowed.stream().map(v -> format(v)).toList();
    }
    return (whole ? "a whole number" : "a number") + " from " + format(min) + " to " + format(max);
  }

  private IllegalArgumentException invalid(Object value) {
    return new IllegalArgumentException(
        "'" + name + "' must be " + expected() + ", was " + Json.encode(value));
  }

  private static String format(double v) {
    return v == Math.rint(v) ? Long.toString((long) v) : String.format(Locale.ROOT, "%s", v);
  }
}
