package io.bulwark.web.internal;

import io.bulwark.api.health.CapacityReport;
import io.bulwark.api.health.Finding;
import io.bulwark.api.health.GpuCapacity;
import io.bulwark.api.telemetry.TargetStatus;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;

/**
 * The JSON shapes of the API types that the web API and the event stream share: findings, the
 * capacity account and scrape targets. Enum values are lower case, instants ISO-8601 strings (null
 * when absent).
 */
final class ApiJson {
  private ApiJson() {}

  /** Returns the finding as the API shows it (the shape every area shares). */
  static JsonObject finding(Finding f) {
    return io.bulwark.web.api.ApiJson.finding(f);
  }

  /**
   * Returns the capacity account with its one-line summary, the headline the fleet page shows (the
   * summary and the targets not answering) and the per-GPU list. {@code gpusHealthy} (full
   * performance), {@code gpusDegraded}, {@code gpusFailed} and {@code gpusUnknown} add up to {@code
   * gpusInstalled}; {@code gpusServing} is the healthy and the degraded together.
   */
  static JsonObject capacity(CapacityReport report, int targetsNotAnswering) {
    return capacity(report, targetsNotAnswering, 0);
  }

  /** As {@link #capacity(CapacityReport, int)}, with the GPUs some detector cannot fully see. */
  static JsonObject capacity(
      CapacityReport report, int targetsNotAnswering, int gpusPartlyCovered) {
    JsonArray gpus = new JsonArray();
    for (GpuCapacity g : report.gpus()) {
      gpus.add(
          new JsonObject()
              .put("node", g.node().value())
              .put("gpu", g.gpu())
              .put("healthy", g.healthy())
              .put("unknown", g.unknown())
              .put("relativePerformance", finite(g.relativePerformance()))
              .put("limitedBy", g.limitedBy())
              .put("lossCause", g.lossCause() == null ? null : name(g.lossCause())));
    }
    return new JsonObject()
        .put("at", instant(report.at()))
        .put("summary", report.summary())
        .put("headline", headline(report, targetsNotAnswering, gpusPartlyCovered))
        .put("gpusInstalled", report.gpusInstalled())
        .put("gpusServing", report.gpusHealthy())
        .put("gpusHealthy", report.gpusFullyHealthy())
        .put("gpusDegraded", report.gpusDegraded())
        .put("gpusFailed", report.gpusFailed())
        .put("gpusUnknown", report.gpusUnknown())
        .put("targetsNotAnswering", targetsNotAnswering)
        .put("gpusPartlyCovered", gpusPartlyCovered)
        .put("meanRelativePerformance", finite(report.meanRelativePerformance()))
        .put("effectiveCapacity", finite(report.effectiveCapacity()))
        .put("gpus", gpus);
  }

  /**
   * Returns the account's summary with the targets not answering: "496 of 512 GPUs serving at 98% =
   * 95% effective; 16 GPUs unknown (2 targets not answering)".
   */
  static String headline(CapacityReport report, int targetsNotAnswering) {
    return headline(report, targetsNotAnswering, 0);
  }

  /**
   * As {@link #headline(CapacityReport, int)}, followed by "; 64 GPUs partly seen (fields missing)"
   * when some detectors lack the fields they read on some nodes.
   */
  static String headline(CapacityReport report, int targetsNotAnswering, int gpusPartlyCovered) {
    String line = report.summary();
    if (targetsNotAnswering > 0) {
      String targets =
          targetsNotAnswering
              + (targetsNotAnswering == 1 ? " target" : " targets")
              + " not answering";
      line = report.gpusUnknown() > 0 ? line + " (" + targets + ")" : line + "; " + targets;
    }
    if (gpusPartlyCovered > 0) {
      line += "; " + gpusPartlyCovered + " GPUs partly seen (fields missing)";
    }
    return line;
  }

  /** Returns a scrape target with how its last scrape went. */
  static JsonObject target(TargetStatus t) {
    Map<String, Object> labels = new TreeMap<>(t.target().labels());
    return new JsonObject()
        .put("url", t.target().url())
        .put("address", t.target().address())
        .put("scheme", t.target().scheme())
        .put("metricsPath", t.target().metricsPath())
        .put("labels", new JsonObject(labels))
        .put("health", name(t.health()))
        .put("node", t.node())
        .put("lastScrape", instant(t.lastScrape()))
        .put("lastDurationMicros", t.lastDurationMicros())
        .put("samples", t.samples())
        .put("lastError", t.lastError())
        .put("blankValues", t.blankValues())
        .put("skipped", t.skipped())
        .put("naming", t.naming());
  }

  /**
   * Ends the request with {@code body} as {@code application/json}; API answers are never cached.
   */
  static void send(RoutingContext ctx, JsonObject body) {
    ctx.response()
        .putHeader("Content-Type", "application/json")
        .putHeader("Cache-Control", "no-store")
        .end(body.encode());
  }

  /** Returns the instant as an ISO-8601 string, or null. */
  static String instant(Instant at) {
    return io.bulwark.web.api.ApiJson.instant(at);
  }

  /** Returns the enum constant's name in lower case, or null. */
  static String name(Enum<?> value) {
    return io.bulwark.web.api.ApiJson.name(value);
  }

  /** Returns the value, or null when it is not a finite number (JSON has no NaN). */
  static Double finite(double value) {
    return io.bulwark.web.api.ApiJson.finite(value);
  }
}
