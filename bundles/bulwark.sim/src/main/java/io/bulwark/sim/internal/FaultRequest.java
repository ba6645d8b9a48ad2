package io.bulwark.sim.internal;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonObject;
import java.math.BigDecimal;
import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * A request to put a fault on a simulated GPU, as the control API receives it: {@code
 * {"node":"gpu-node-007","gpu":3,"kind":"xid","durationSeconds":120,"xid":79}}, where {@code
 * durationSeconds} (default: until deleted) and the kind's own parameter ({@link
 * FaultKind#parameter()}, e.g. {@code xid}, default 79) are optional, {@code gpu} is optional for
 * node-level kinds (default 0), and unknown members are ignored.
 *
 * @param value the value of the kind's parameter, NaN for a kind without one
 * @param durationMillis how long the fault lasts, or {@link Fault#UNTIL_DELETED}
 */
record FaultRequest(String node, int gpu, FaultKind kind, double value, long durationMillis) {
  static final long MAX_DURATION_SECONDS = 30L * 24 * 3600;

  /**
   * Parses and checks a request body against the fleet.
   *
   * @throws IllegalArgumentException with a message for the caller if the body is not a valid fault
   *     request
   */
  static FaultRequest parse(Buffer body, SimulatedFleet fleet) {
    JsonObject json = object(body);
    Object node = json.getValue("node");
    if (!(node instanceof String name)) {
      throw new IllegalArgumentException(
          "'node' must be a node name such as " + fleet.nodes().get(0));
    }
    if (!fleet.hasNode(name)) {
      throw new IllegalArgumentException(
          "unknown node '"
              + name
              + "'; GET /sim/nodes lists the "
              + fleet.nodes().size()
              + " nodes");
    }
    Object kindValue = json.getValue("kind");
    FaultKind kind = kindValue instanceof String word ? FaultKind.parse(word).orElse(null) : null;
    if (kind == null) {
      throw new IllegalArgumentException(
          "unknown kind "
              + (kindValue == null ? "(missing)" : "'" + kindValue + "'")
              + "; 'kind' must be one of "
              + Arrays.stream(FaultKind.values())
                  .map(FaultKind::word)
                  .collect(Collectors.joining(", ")));
    }
    int gpu = (int) integer(json, "gpu", 0, fleet.gpusPerNode() - 1, kind.nodeLevel() ? 0L : null);
    long seconds = integer(json, "durationSeconds", 1, MAX_DURATION_SECONDS, 0L);
    double value = kind.parameter().map(p -> p.read(json)).orElse(Double.NaN);
    return new FaultRequest(
        name, gpu, kind, value, seconds == 0 ? Fault.UNTIL_DELETED : seconds * 1000);
  }

  private static JsonObject object(Buffer body) {
    if (body == null || body.length() == 0) {
      throw new IllegalArgumentException("the body must be a JSON object with node, gpu and kind");
    }
    Object value;
    try {
      value = Json.decodeValue(body);
    } catch (DecodeException e) {
      throw new IllegalArgumentException("the body is not valid JSON: " + e.getMessage());
    }
    if (!(value instanceof JsonObject json)) {
      throw new IllegalArgumentException("the body must be a JSON object with node, gpu and kind");
    }
    return json;
  }

  /**
   * Reads a whole number in [min, max]; absent or null gives {@code fallback}, or an error when it
   * is null.
   */
  private static long integer(JsonObject json, String name, long min, long max, Long fallback) {
    Object value = json.getValue(name);
    if (value == null) {
      if (fallback == null) {
        throw new IllegalArgumentException(
            "'" + name + "' is missing; it must be a whole number from " + min + " to " + max);
      }
      return fallback;
    }
    if (value instanceof Number number) {
      try {
        BigDecimal exact = new BigDecimal(number.toString());
        long whole = exact.longValueExact();
        if (whole >= min && whole <= max) {
          return whole;
        }
      } catch (ArithmeticException | NumberFormatException notWhole) {
        // reported below
      }
    }
    throw new IllegalArgumentException(
        "'"
            + name
            + "' must be a whole number from "
            + min
            + " to "
            + max
            + ", was "
            + Json.encode(value));
  }
}
