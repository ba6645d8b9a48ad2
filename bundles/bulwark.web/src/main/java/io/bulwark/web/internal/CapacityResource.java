package io.bulwark.web.internal;

import io.bulwark.api.health.CapacityInterval;
import io.bulwark.api.health.CapacityReport;
import io.bulwark.api.health.HealthService;
import io.bulwark.api.health.LossCause;
import io.bulwark.api.telemetry.TargetStatus;
import io.bulwark.api.telemetry.TelemetryTargets;
import io.bulwark.web.api.ApiRequest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code GET /api/v1/capacity}: the effective-capacity account now (GPUs installed, and of them
 * healthy, degraded, failed and unknown, which add up; the targets not answering; effective
 * capacity; per GPU), the GPU-hours lost over the last 24 hours by cause with the rate per day, and
 * the account day by day over the last {@code days} (1 to 90, default 14) from the hourly ledger;
 * in money too when a GPU-hour price is configured.
 */
final class CapacityResource {
  static final int DEFAULT_DAYS = 14;
  static final int MAX_DAYS = 90;

  private final HealthService health;
  private final TelemetryTargets targets;
  private final GpuHourPrice price;
  private final Clock clock;

  CapacityResource(
      HealthService health, TelemetryTargets targets, GpuHourPrice price, Clock clock) {
    this.health = health;
    this.targets = targets;
    this.price = price;
    this.clock = clock;
  }

  /** Returns the health engine's latest account, or an empty one before its first evaluation. */
  static CapacityReport current(HealthService health, Clock clock) {
    CapacityReport report = health.capacity();
    return report != null ? report : CapacityReport.of(clock.instant(), List.of());
  }

  /** Returns how many scrape targets are not answering now: down, or not scraped yet. */
  static int notAnswering(TelemetryTargets targets) {
    int n = 0;
    for (TargetStatus t : targets.targets()) {
      if (t.health() != TargetStatus.Health.UP) {
        n++;
      }
    }
    return n;
  }

  void capacity(RoutingContext ctx) {
    int days = QueryParameters.integer(ctx, "days", DEFAULT_DAYS, 1, MAX_DAYS);
    CapacityReport report = current(health, clock);
    Instant now = clock.instant();
    LocalDate today = LocalDate.ofInstant(now, ZoneOffset.UTC);
    Instant from = today.minusDays(days - 1L).atStartOfDay(ZoneOffset.UTC).toInstant();
    List<CapacityInterval> hours = health.capacityHistory(from);
    JsonObject body =
        ApiJson.capacity(
            report, notAnswering(targets), CoverageResource.gpusPartlyCovered(health.coverage()));
    body.put("lastDay", lastDay(hours, now.minus(Duration.ofDays(1))));
    body.put("days", perDay(hours, today, days));
    body.put("hours", hourly(hours, now.minus(Duration.ofDays(7))));
    if (price.shown()) {
      body.put(
          "gpuHourPrice",
          new JsonObject().put("amount", price.amount()).put("currency", price.currency()));
    }
    ApiRequest.json(ctx, body);
  }

  private JsonObject lastDay(List<CapacityInterval> hours, Instant since) {
    Sum sum = new Sum();
    for (CapacityInterval h : hours) {
      if (!h.start().isBefore(since.minus(Duration.ofHours(1)))) {
        sum.add(h);
      }
    }
    JsonObject json = sum.json(price);
    double observedHours = sum.observedMillis / 3_600_000.0;
    double scale = observedHours > 0 ? 24.0 / observedHours : 0;
    JsonObject rate = new JsonObject();
    for (LossCause c : LossCause.values()) {
      rate.put(name(c), ApiJson.finite(sum.lost.get(c) * scale));
    }
    rate.put("total", ApiJson.finite(sum.lostTotal() * scale));
    return json.put("gpuHoursLostPerDay", rate);
  }

  /**
   * The trend: per booked hour of the last 7 days (of the days asked for), its start, the effective
   * capacity (GPU-hours delivered over installed) and the GPU-hours lost.
   */
  static JsonArray hourly(List<CapacityInterval> hours, Instant since) {
    JsonArray out = new JsonArray();
    for (CapacityInterval h : hours) {
      if (h.start().isBefore(since) || h.gpuHoursInstalled() <= 0) {
        continue;
      }
      double lost = 0;
      for (double v : h.gpuHoursLost().values()) {
        lost += v;
      }
      out.add(
          new JsonObject()
              .put("start", h.start().toString())
              .put("effective", ApiJson.finite(h.gpuHoursDelivered() / h.gpuHoursInstalled()))
              .put("gpuHoursLost", ApiJson.finite(lost)));
    }
    return out;
  }

  private JsonArray perDay(List<CapacityInterval> hours, LocalDate today, int days) {
    Map<LocalDate, Sum> byDay = new TreeMap<>();
    for (int d = days - 1; d >= 0; d--) {
      byDay.put(today.minusDays(d), new Sum());
    }
    for (CapacityInterval h : hours) {
      Sum sum = byDay.get(LocalDate.ofInstant(h.start(), ZoneOffset.UTC));
      if (sum != null) {
        sum.add(h);
      }
    }
    JsonArray out = new JsonArray();
    byDay.forEach((day, sum) -> out.add(sum.json(price).put("day", day.toString())));
    return out;
  }

  static String name(LossCause cause) {
    return cause.name().toLowerCase(Locale.ROOT);
  }

  /** GPU-hours added up over some hours. */
  private static final class Sum {
    long observedMillis;
    double installed;
    double delivered;
    final Map<LossCause, Double> lost = new EnumMap<>(LossCause.class);

    Sum() {
      for (LossCause c : LossCause.values()) {
        lost.put(c, 0.0);
      }
    }

    void add(CapacityInterval h) {
      observedMillis += h.observedMillis();
      installed += h.gpuHoursInstalled();
      delivered += h.gpuHoursDelivered();
      h.gpuHoursLost().forEach((c, v) -> lost.merge(c, v, Double::sum));
    }

    double lostTotal() {
      return lost.values().stream().mapToDouble(Double::doubleValue).sum();
    }

    JsonObject json(GpuHourPrice price) {
      JsonObject byCause = new JsonObject();
      lost.forEach((c, v) -> byCause.put(name(c), ApiJson.finite(v)));
      byCause.put("total", ApiJson.finite(lostTotal()));
      JsonObject json =
          new JsonObject()
              .put("observedHours", ApiJson.finite(observedMillis / 3_600_000.0))
              .put("gpuHoursInstalled", ApiJson.finite(installed))
              .put("gpuHoursDelivered", ApiJson.finite(delivered))
              .put("gpuHoursLost", byCause);
      if (price.shown()) {
        json.put("moneyLost", ApiJson.finite(lostTotal() * price.amount()));
      }
      return json;
    }
  }
}
