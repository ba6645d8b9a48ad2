package io.bulwark.lib.exposition;

import java.nio.charset.StandardCharsets;

/**
 * Reads the value and timestamp tokens of the text exposition format straight from the page's
 * bytes: decimal floats (with optional exponent), {@code NaN}, {@code +Inf}, {@code -Inf}
 * (case-insensitive, as Prometheus accepts them) and integer millisecond timestamps. Common values
 * are computed exactly without allocating; rare long ones fall back to {@link Double#parseDouble}.
 * Not thread-safe: one instance per parser.
 */
final class ValueText {
  private static final double[] POWERS_OF_TEN = {
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22
  };
  private static final long EXACT_MANTISSA = 1L << 53;
  private static final int MAX_DIGITS = 18;

  private double number;
  private long integer;

  /** Returns the float read by the last successful {@link #readFloat}. */
  double number() {
    return number;
  }

  /** Returns the integer read by the last successful {@link #readInteger}. */
  long integer() {
    return integer;
  }

  /** Reads a float from {@code [from, to)}; returns false if the bytes are not one. */
  boolean readFloat(byte[] b, int from, int to) {
    int p = from;
    if (p >= to) {
      return false;
    }
    boolean negative = false;
    boolean signed = b[p] == '+' || b[p] == '-';
    if (signed) {
      negative = b[p] == '-';
      p++;
      if (p >= to) {
        return false;
      }
    }
    byte first = b[p];
    if (first == 'n' || first == 'N') {
      number = Double.NaN;
      return !signed && equalsIgnoreCase(b, p, to, "nan");
    }
    if (first == 'i' || first == 'I') {
      number = negative ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
      return equalsIgnoreCase(b, p, to, "inf") || equalsIgnoreCase(b, p, to, "infinity");
    }
    long mantissa = 0;
    int digits = 0;
    int exponent = 0;
    boolean anyDigit = false;
    boolean truncated = false;
    while (p < to && isDigit(b[p])) {
      anyDigit = true;
      if (digits < MAX_DIGITS) {
        mantissa = mantissa * 10 + (b[p] - '0');
        if (mantissa != 0) {
          digits++;
        }
      } else {
        exponent++;
        truncated |= b[p] != '0';
      }
      p++;
    }
    if (p < to && b[p] == '.') {
      p++;
      while (p < to && isDigit(b[p])) {
        anyDigit = true;
        if (digits < MAX_DIGITS) {
          mantissa = mantissa * 10 + (b[p] - '0');
          if (mantissa != 0) {
            digits++;
          }
          exponent--;
        } else {
          truncated |= b[p] != '0';
        }
        p++;
      }
    }
    if (!anyDigit) {
      return false;
    }
    if (p < to && (b[p] == 'e' || b[p] == 'E')) {
      p++;
      boolean negativeExponent = false;
      if (p < to && (b[p] == '+' || b[p] == '-')) {
        negativeExponent = b[p] == '-';
        p++;
      }
      if (p >= to) {
        return false;
      }
      int explicit = 0;
      while (p < to && isDigit(b[p])) {
        explicit = Math.min(explicit * 10 + (b[p] - '0'), 100_000);
        p++;
      }
      exponent += negativeExponent ? -explicit : explicit;
    }
    if (p != to) {
      return false;
    }
    double value;
    if (mantissa == 0) {
      value = 0.0;
    } else if (!truncated && mantissa <= EXACT_MANTISSA && exponent >= -22 && exponent <= 22) {
      value =
          exponent >= 0 ? mantissa * POWERS_OF_TEN[exponent] : mantissa / POWERS_OF_TEN[-exponent];
    } else {
      value = Double.parseDouble(new String(b, from, to - from, StandardCharsets.ISO_8859_1));
      number = value;
      return true;
    }
    number = negative ? -value : value;
    return true;
  }

  /**
   * Reads a signed decimal integer that fits a long from {@code [from, to)}; returns false
   * otherwise.
   */
  boolean readInteger(byte[] b, int from, int to) {
    int p = from;
    boolean negative = p < to && b[p] == '-';
    if (negative || (p < to && b[p] == '+')) {
      p++;
    }
    if (p >= to) {
      return false;
    }
    long value = 0;
    while (p < to) {
      byte c = b[p++];
      if (!isDigit(c)) {
        return false;
      }
      if (value > (Long.MAX_VALUE - (c - '0')) / 10) {
        return false;
      }
      value = value * 10 + (c - '0');
    }
    integer = negative ? -value : value;
    return true;
  }

  private static boolean isDigit(byte c) {
    return c >= '0' && c <= '9';
  }

  private static boolean equalsIgnoreCase(byte[] b, int from, int to, String word) {
    if (to - from != word.length()) {
      return false;
    }
    for (int i = 0; i < word.length(); i++) {
      if (Character.toLowerCase((char) b[from + i]) != word.charAt(i)) {
        return false;
      }
    }
    return true;
  }
}
