package io.bulwark.sim.internal;

import java.util.Locale;

/**
 * What the simulator plays by itself: scripted faults ({@link #DEMO}) or a healthy fleet ({@link
 * #NONE}).
 */
enum Scenario {
  DEMO,
  NONE;

  /** Returns the name as configured, {@code demo} or {@code none}. */
  String word() {
    return name().toLowerCase(Locale.ROOT);
  }

  /**
   * @throws IllegalArgumentException if {@code value} is neither {@code demo} nor {@code none}
   */
  static Scenario parse(String value) {
    for (Scenario s : values()) {
      if (s.word().equals(value)) {
        return s;
      }
    }
    throw new IllegalArgumentException("scenario must be 'demo' or 'none', was '" + value + "'");
  }
}
