package io.bulwark.web.api;

import io.bulwark.api.health.Finding;
import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.util.Locale;
import java.util.TreeMap;

/**
 * The JSON shapes every area's routes share, so that a finding looks the same wherever the API
 * answers it: enum values in lower case, instants as ISO-8601 strings (null when absent), numbers
 * that are not finite as null. Static helpers; thread-safe.
 *
 * @since 1.1
 */
public final class ApiJson {
  private ApiJson() {}

  /** Returns the finding as the API shows it. */
  public static JsonObject finding(Finding f) {
    return new JsonObject()
        .put("id", f.id())
        .put("kind", f.kind())
        .put("node", f.node().value())
        .put("gpu", f.gpu())
        .put("gpuUuid", f.gpuUuid())
        .put("severity", name(f.severity()))
        .put("state", name(f.state()))
        .put("firstSeen", instant(f.firstSeen()))
        .put("lastSeen", instant(f.lastSeen()))
        .put("resolvedAt", instant(f.resolvedAt()))
        .put("summary", f.summary())
        .put("evidence", new JsonObject(new TreeMap<String, Object>(f.evidence())))
        .put("recommendedAction", f.recommendedAction())
        .put("performanceFactor", finite(f.performanceFactor()))
        .put("occurrences", f.occurrences());
  }

  /** Returns the instant as ISO-8601, or null. */
  public static String instant(Instant at) {
    return at == null ? null : at.toString();
  }

  /** Returns the enum constant's name in lower case, or null. */
  public static String name(Enum<?> value) {
    return value == null ? null : value.name().toLowerCase(Locale.ROOT);
  }

  /** Returns the value, or null when it is not a finite number (JSON has no NaN). */
  public static Double finite(double value) {
    return Double.isFinite(value) ? value : null;
  }
}
