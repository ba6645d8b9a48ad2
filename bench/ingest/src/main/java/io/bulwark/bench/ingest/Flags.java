package io.bulwark.bench.ingest;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * The {@code --name value} options of a benchmark program, checked against the names it knows so
 * that a misspelt option stops the run instead of being ignored. Used by the main programs.
 */
final class Flags {
  private final Map<String, String> values = new HashMap<>();

  private Flags() {}

  /**
   * Parses {@code args}.
   *
   * @throws IllegalArgumentException for an unknown option or one without a value
   */
  static Flags parse(String[] args, Set<String> known) {
    Flags flags = new Flags();
    for (int i = 0; i < args.length; i += 2) {
      String name = args[i];
      if (!name.startsWith("--") || !known.contains(name.substring(2))) {
        throw new IllegalArgumentException(
            "unknown option '" + name + "'; known options: --" + String.join(", --", known));
      }
      if (i + 1 >= args.length) {
        throw new IllegalArgumentException("option " + name + " needs a value");
      }
      flags.values.put(name.substring(2), args[i + 1]);
    }
    return flags;
  }

  String text(String name, String fallback) {
    return values.getOrDefault(name, fallback);
  }

  int number(String name, int fallback) {
    String value = values.get(name);
    if (value == null) {
      return fallback;
    }
    try {
      return Integer.parseInt(value.strip());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "--" + name + " must be a whole number, was '" + value + "'");
    }
  }
}
