package io.bulwark.scheduler.slurm.internal;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Expands Slurm's hostlist expressions, as {@code squeue %N} and {@code scontrol show hostnames}
 * write them: names separated by commas, each with any number of bracketed ranges, e.g. {@code
 * gpu[01-03,07],login1} or {@code rack[1-2]-gpu[1-2]}. A range keeps the zero padding of its lower
 * bound ({@code [08-10]} gives 08, 09, 10; {@code [8-10]} gives 8, 9, 10), and several ranges in
 * one name combine with the first varying slowest. Names come out in the order written, a name
 * written twice once.
 */
final class Hostlist {
  /** The most names one expression may expand to; more is not a listing of real nodes. */
  static final int LIMIT = 1_000_000;

  private Hostlist() {}

  /**
   * Returns the names {@code expression} stands for; an empty or blank expression stands for none.
   *
   * @throws IllegalArgumentException if it is not a hostlist expression (unbalanced brackets, a
   *     range that is not numbers, a lower bound above the upper) or stands for more than {@value
   *     #LIMIT} names
   */
  static List<String> expand(String expression) {
    List<String> names = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    for (String part : topLevel(expression.strip())) {
      List<String> expanded = new ArrayList<>();
      expandInto("", part, expanded, expression);
      for (String name : expanded) {
        if (seen.add(name)) {
          names.add(name);
        }
      }
    }
    return names;
  }

  /** Splits on the commas that are outside brackets. */
  private static List<String> topLevel(String expression) {
    List<String> parts = new ArrayList<>();
    int depth = 0;
    int start = 0;
    for (int i = 0; i < expression.length(); i++) {
      char c = expression.charAt(i);
      if (c == '[') {
        depth++;
        if (depth > 1) {
          throw invalid(expression, "a bracket opens inside another");
        }
      } else if (c == ']') {
        depth--;
        if (depth < 0) {
          throw invalid(expression, "a bracket closes that was not opened");
        }
      } else if (c == ',' && depth == 0) {
        add(parts, expression.substring(start, i), expression);
        start = i + 1;
      }
    }
    if (depth != 0) {
      throw invalid(expression, "a bracket is not closed");
    }
    if (start < expression.length() || !parts.isEmpty()) {
      add(parts, expression.substring(start), expression);
    }
    return parts;
  }

  private static void add(List<String> parts, String part, String expression) {
    if (part.isBlank()) {
      throw invalid(expression, "it has an empty name between commas");
    }
    parts.add(part.strip());
  }

  /** Appends {@code prefix} followed by every expansion of {@code rest} to {@code out}. */
  private static void expandInto(String prefix, String rest, List<String> out, String expression) {
    int open = rest.indexOf('[');
    if (open < 0) {
      out.add(prefix + rest);
      checkSize(out, expression);
      return;
    }
    int close = rest.indexOf(']', open);
    String head = prefix + rest.substring(0, open);
    String tail = rest.substring(close + 1);
    for (String value : values(rest.substring(open + 1, close), expression)) {
      expandInto(head + value, tail, out, expression);
    }
  }

  /** The numbers a bracket's ranges stand for, zero-padded as written. */
  private static List<String> values(String ranges, String expression) {
    List<String> values = new ArrayList<>();
    for (String range : ranges.split(",", -1)) {
      String r = range.strip();
      int dash = r.indexOf('-');
      String lo = dash < 0 ? r : r.substring(0, dash);
      String hi = dash < 0 ? r : r.substring(dash + 1);
      if (!digits(lo) || !digits(hi)) {
        throw invalid(expression, "\"[" + ranges + "]\" holds \"" + r + "\", not a number range");
      }
      long from = Long.parseLong(lo);
      long to = Long.parseLong(hi);
      if (from > to) {
        throw invalid(expression, "the range " + r + " runs backwards");
      }
      if (to - from >= LIMIT || values.size() + (to - from) >= LIMIT) {
        throw invalid(expression, "it stands for more than " + LIMIT + " names");
      }
      int width = lo.length();
      for (long n = from; n <= to; n++) {
        String number = Long.toString(n);
        values.add(number.length() < width ? "0".repeat(width - number.length()) + number : number);
      }
    }
    return values;
  }

  private static boolean digits(String text) {
    return !text.isEmpty() && text.length() <= 18 && text.chars().allMatch(Character::isDigit);
  }

  private static void checkSize(List<String> out, String expression) {
    if (out.size() > LIMIT) {
      throw invalid(expression, "it stands for more than " + LIMIT + " names");
    }
  }

  private static IllegalArgumentException invalid(String expression, String why) {
    return new IllegalArgumentException(
        "\"" + expression + "\" is not a Slurm hostlist expression: " + why);
  }
}
