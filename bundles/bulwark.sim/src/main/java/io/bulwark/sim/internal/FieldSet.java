package io.bulwark.sim.internal;

import java.util.Locale;

/**
 * Which fields a simulated node serves: those of Bulwark's counters file for dcgm-exporter ({@link
 * #COUNTERS}, what an exporter started with that file serves, and the default), or every field the
 * simulator models ({@link #ALL}, an exporter with a wider counters file).
 */
enum FieldSet {
  COUNTERS,
  ALL;

  /** Returns the fields served, in page order. */
  Metric[] metrics() {
    return this == COUNTERS ? Metric.COUNTERS_FILE.clone() : Metric.values();
  }

  /** Returns the name as configured, {@code counters} or {@code all}. */
  String word() {
    return name().toLowerCase(Locale.ROOT);
  }

  /**
   * @throws IllegalArgumentException if {@code value} is neither {@code counters} nor {@code all}
   */
  static FieldSet parse(String value) {
    for (FieldSet f : values()) {
      if (f.word().equals(value)) {
        return f;
      }
    }
    throw new IllegalArgumentException("fields must be 'counters' or 'all', was '" + value + "'");
  }
}
