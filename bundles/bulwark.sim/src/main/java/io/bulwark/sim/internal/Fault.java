package io.bulwark.sim.internal;

import io.vertx.core.json.JsonObject;
import java.time.Instant;

/**
 * One fault put on one simulated GPU (or its node, for node-level kinds): what kind, with which
 * parameter value, since when and until when ({@link #UNTIL_DELETED} for a fault that holds until
 * it is deleted). Immutable; kept by {@link FaultBook}.
 *
 * @param id the identifier the control API names the fault by
 * @param value the value of the kind's parameter (e.g. the XID code of an {@code xid} fault), NaN
 *     for a kind without one
 * @param startMillis when the fault begins, epoch milliseconds
 * @param endMillis when the fault clears, epoch milliseconds, or {@link #UNTIL_DELETED}
 */
record Fault(
    String id,
    String node,
    int gpu,
    FaultKind kind,
    double value,
    long startMillis,
    long endMillis) {
  static final long UNTIL_DELETED = Long.MAX_VALUE;

  /** Returns true if the fault holds at {@code nowMillis}. */
  boolean activeAt(long nowMillis) {
    return nowMillis >= startMillis && nowMillis < endMillis;
  }

  /** Returns true if the fault has run its course at {@code nowMillis}. */
  boolean expiredAt(long nowMillis) {
    return nowMillis >= endMillis;
  }

  /** Returns the fault cleared at {@code nowMillis}, if it would otherwise hold longer. */
  Fault clearedAt(long nowMillis) {
    return nowMillis >= endMillis
        ? this
        : new Fault(id, node, gpu, kind, value, startMillis, Math.max(startMillis, nowMillis));
  }

  /** Returns true if the fault applies to GPU {@code g} of {@code n}. */
  boolean on(String n, int g) {
    return node.equals(n) && (gpu == g || kind.nodeLevel());
  }

  /** Returns the XID code of an {@code xid} fault. */
  int xid() {
    return (int) value;
  }

  /** Returns the fault as the control API shows it. */
  JsonObject toJson() {
    JsonObject json =
        new JsonObject().put("id", id).put("node", node).put("gpu", gpu).put("kind", kind.word());
    kind.parameter().ifPresent(p -> json.put(p.name(), p.json(value)));
    json.put("start", Instant.ofEpochMilli(startMillis).toString());
    if (endMillis != UNTIL_DELETED) {
      json.put("durationSeconds", (endMillis - startMillis) / 1000);
      json.put("end", Instant.ofEpochMilli(endMillis).toString());
    }
    return json;
  }

  /**
   * Returns the fault in the words of a log line, e.g. "fault 3 (xid 79) on gpu-node-007 GPU 3".
   */
  String describe() {
    String what =
        kind == FaultKind.XID
            ? "xid " + xid()
            : kind.word()
                + kind.parameter().map(p -> " " + p.name() + "=" + p.json(value)).orElse("");
    return "fault " + id + " (" + what + ") on " + node + (kind.nodeLevel() ? "" : " GPU " + gpu);
  }
}
