package io.bulwark.health.scenarios;

import io.vertx.core.json.JsonObject;
import java.util.Locale;

/**
 * One timed change a scenario makes to its fleet, on one GPU ({@code gpu}), every GPU of a node
 * ({@code gpu} = -1) or every node ({@code node} = -1), from second {@code at} until second {@code
 * until} (exclusive; the end of the scenario when absent).
 *
 * <ul>
 *   <li>{@code set}: the metric reads {@code value};
 *   <li>{@code step}: the metric is multiplied by {@code factor} and {@code by} is added; with
 *       {@code every}, only for the first {@code period} seconds of every {@code every} seconds
 *       from {@code at} (a checkpoint that stalls the job periodically);
 *   <li>{@code ramp}: {@code by} is added in a straight line from {@code at} (0) to {@code until}
 *       (all of it), and stays added to the end;
 *   <li>{@code increment}: the counter grows by {@code by} every {@code every} seconds from {@code
 *       at} to {@code until}; it never gives the growth back;
 *   <li>{@code reset}: a driver reload: the counter (or, without a metric, every volatile counter
 *       of the GPU) starts again from 0 at {@code at};
 *   <li>{@code flap}: the metric reads {@code value} for {@code period} seconds, then its normal
 *       reading for {@code period} seconds, and so on;
 *   <li>{@code down}: the node's exporter stops answering (node-level);
 *   <li>{@code vanish}: the GPU's lines are missing from the page;
 *   <li>{@code blank}: the metric reads one of DCGM's blank values, as dcgm-exporter would print
 *       it: {@code value} 0 the int64 blank (9223372036854775794, NOT_SUPPORTED), 1 the int32 blank
 *       (2147483632), 2 the double blank (140737488355328.000000), 3 NaN.
 * </ul>
 */
record ScenarioEvent(
    Type type,
    int node,
    int gpu,
    GpuField field,
    int at,
    int until,
    double value,
    double factor,
    double by,
    int every,
    int period) {

  /** The kinds of change. */
  enum Type {
    SET,
    STEP,
    RAMP,
    INCREMENT,
    RESET,
    FLAP,
    DOWN,
    VANISH,
    BLANK
  }

  /** Returns true if the event touches GPU {@code g} of node {@code n}. */
  boolean covers(int n, int g) {
    return (node < 0 || node == n) && (gpu < 0 || gpu == g);
  }

  /** Returns true if second {@code t} lies in [at, until). */
  boolean activeAt(int t) {
    return t >= at && t < until;
  }

  /**
   * Returns true if a periodic step is in its pulse in second {@code t}: always for a step without
   * {@code every}.
   */
  boolean pulsesAt(int t) {
    return (t - at) % every < period;
  }

  /**
   * Parses one event.
   *
   * @param end the scenario's duration, used when {@code until} is absent
   * @throws IllegalArgumentException on an unknown type or metric, or a missing value
   */
  static ScenarioEvent from(JsonObject json, int end) {
    Type type = Type.valueOf(json.getString("type", "").toUpperCase(Locale.ROOT));
    String metric = json.getString("metric");
    GpuField field = metric == null ? null : GpuField.named(metric);
    boolean needsMetric =
        type == Type.SET
            || type == Type.STEP
            || type == Type.RAMP
            || type == Type.INCREMENT
            || type == Type.FLAP
            || type == Type.BLANK;
    if (needsMetric && field == null) {
      throw new IllegalArgumentException(type + " event needs a metric: " + json.encode());
    }
    if ((type == Type.SET || type == Type.FLAP || type == Type.BLANK)
        && !json.containsKey("value")) {
      throw new IllegalArgumentException(type + " event needs a value: " + json.encode());
    }
    if (type == Type.INCREMENT && field != null && !field.counter()) {
      throw new IllegalArgumentException("increment of a gauge: " + json.encode());
    }
    int at = json.getInteger("at", 0);
    int until = json.getInteger("until", end);
    if (until <= at && type != Type.RESET) {
      throw new IllegalArgumentException("event ends before it starts: " + json.encode());
    }
    return new ScenarioEvent(
        type,
        json.getInteger("node", -1),
        json.getInteger("gpu", -1),
        field,
        at,
        until,
        json.getDouble("value", 0.0),
        json.getDouble("factor", 1.0),
        json.getDouble("by", 0.0),
        Math.max(1, json.getInteger("every", 1)),
        Math.max(1, json.getInteger("period", 1)));
  }
}
