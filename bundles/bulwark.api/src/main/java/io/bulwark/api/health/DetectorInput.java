package io.bulwark.api.health;

import java.util.List;
import java.util.Objects;

/**
 * One input a detector reads: a telemetry field, or several fields any one of which serves (the
 * first is the one exporters are asked for). A detector whose input is not served by a node's
 * exporter cannot see that kind of fault there.
 *
 * @param anyOf the metric names, at least one
 * @since 1.3
 */
public record DetectorInput(List<String> anyOf) {

  public DetectorInput {
    anyOf = List.copyOf(anyOf);
    if (anyOf.isEmpty()) {
      throw new IllegalArgumentException("a detector input names at least one field");
    }
    anyOf.forEach(f -> Objects.requireNonNull(f, "field"));
  }

  /** Returns the input served by {@code field} alone. */
  public static DetectorInput of(String field) {
    return new DetectorInput(List.of(field));
  }

  /** Returns the input served by any of {@code fields}. */
  public static DetectorInput anyOf(String... fields) {
    return new DetectorInput(List.of(fields));
  }

  /** Returns true if {@code served} contains one of the fields. */
  public boolean servedBy(java.util.Set<String> served) {
    for (String f : anyOf) {
      if (served.contains(f)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Returns the input for an operator: "DCGM_FI_DEV_SLOWDOWN_TEMP (or
   * DCGM_FI_DEV_GPU_MAX_OP_TEMP)".
   */
  public String describe() {
    if (anyOf.size() == 1) {
      return anyOf.get(0);
    }
    return anyOf.get(0) + " (or " + String.join(" or ", anyOf.subList(1, anyOf.size())) + ")";
  }
}
