package io.bulwark.web.internal;

import io.bulwark.api.health.CapacityInterval;
import io.bulwark.api.health.CapacityReport;
import io.bulwark.api.health.Finding;
import io.bulwark.api.health.FindingKind;
import io.bulwark.api.health.FindingQuery;
import io.bulwark.api.health.HealthService;
import io.bulwark.api.health.LossCause;
import io.bulwark.api.health.Severity;
import io.bulwark.api.telemetry.TargetStatus;
import io.bulwark.api.telemetry.TelemetryTargets;
import io.bulwark.web.api.MetricsSource;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

/**
 * The fleet on {@code /metrics}: open findings by kind and severity (every known kind, zero
 * included, so an alert rule never waits on a series that does not exist yet), the GPUs by state
 * and the effective capacity, the GPU-hours lost in the last 24 hours by cause, and each scrape
 * target's health, duration and sample count.
 */
@Component(service = MetricsSource.class)
public final class FleetMetrics implements MetricsSource {
  private final HealthService health;
  private final TelemetryTargets targets;
  private final Clock clock;

  @Activate
  public FleetMetrics(@Reference HealthService health, @Reference TelemetryTargets targets) {
    this(health, targets, Clock.systemUTC());
  }

  FleetMetrics(HealthService health, TelemetryTargets targets, Clock clock) {
    this.health = health;
    this.targets = targets;
    this.clock = clock;
  }

  @Override
  public String exposition() {
    StringBuilder out = new StringBuilder(8192);
    Map<String, Integer> open = new TreeMap<>();
    for (String kind : FindingKind.BUILT_IN) {
      for (Severity s : List.of(Severity.WARNING, Severity.CRITICAL)) {
        open.put(kind + "\u0000" + s.name().toLowerCase(Locale.ROOT), 0);
      }
    }
    for (Finding f : health.findings(FindingQuery.open().withLimit(1_000_000))) {
      open.merge(
          f.kind() + "\u0000" + f.severity().name().toLowerCase(Locale.ROOT), 1, Integer::sum);
    }
    family(out, "bulwark_findings_open", "gauge", "Open findings by kind and severity.");
    open.forEach(
        (key, n) -> {
          int cut = key.indexOf('\u0000');
          out.append("bulwark_findings_open{kind=\"")
              .append(escape(key.substring(0, cut)))
              .append("\",severity=\"")
              .append(key.substring(cut + 1))
              .append("\"} ")
              .append(n)
              .append('\n');
        });

    CapacityReport c = health.capacity();
    family(out, "bulwark_gpus_installed", "gauge", "GPUs the inventory knows.");
    out.append("bulwark_gpus_installed ").append(c.gpusInstalled()).append('\n');
    family(
        out,
        "bulwark_gpus",
        "gauge",
        "GPUs by state: healthy (full speed), degraded (serving slower), failed, unknown (not seen).");
    out.append("bulwark_gpus{state=\"healthy\"} ").append(c.gpusFullyHealthy()).append('\n');
    out.append("bulwark_gpus{state=\"degraded\"} ").append(c.gpusDegraded()).append('\n');
    out.append("bulwark_gpus{state=\"failed\"} ").append(c.gpusFailed()).append('\n');
    out.append("bulwark_gpus{state=\"unknown\"} ").append(c.gpusUnknown()).append('\n');
    family(
        out,
        "bulwark_capacity_effective_ratio",
        "gauge",
        "Effective capacity: what the GPUs deliver over what is installed, 0 to 1.");
    out.append("bulwark_capacity_effective_ratio ")
        .append(number(c.effectiveCapacity()))
        .append('\n');

    Instant now = clock.instant();
    Map<LossCause, Double> lost = new EnumMap<>(LossCause.class);
    for (LossCause cause : LossCause.values()) {
      lost.put(cause, 0.0);
    }
    double installed = 0;
    for (CapacityInterval i : health.capacityHistory(now.minus(Duration.ofHours(24)))) {
      installed += i.gpuHoursInstalled();
      i.gpuHoursLost().forEach((cause, h) -> lost.merge(cause, h, Double::sum));
    }
    family(
        out,
        "bulwark_gpu_hours_lost_24h",
        "gauge",
        "GPU-hours lost in the last 24 hours (whole hours booked so far), by cause.");
    lost.forEach(
        (cause, h) ->
            out.append("bulwark_gpu_hours_lost_24h{cause=\"")
                .append(cause.name().toLowerCase(Locale.ROOT))
                .append("\"} ")
                .append(number(h))
                .append('\n'));
    family(
        out,
        "bulwark_gpu_hours_installed_24h",
        "gauge",
        "GPU-hours installed in the last 24 hours.");
    out.append("bulwark_gpu_hours_installed_24h ").append(number(installed)).append('\n');

    List<TargetStatus> ts = targets.targets();
    family(out, "bulwark_target_up", "gauge", "1 if the scrape target's last scrape succeeded.");
    for (TargetStatus t : ts) {
      out.append("bulwark_target_up").append(targetLabels(t)).append(' ');
      out.append(t.health() == TargetStatus.Health.UP ? 1 : 0).append('\n');
    }
    family(
        out,
        "bulwark_target_scrape_duration_seconds",
        "gauge",
        "How long the target's last scrape took.");
    for (TargetStatus t : ts) {
      out.append("bulwark_target_scrape_duration_seconds").append(targetLabels(t)).append(' ');
      out.append(number(t.lastDurationMicros() / 1e6)).append('\n');
    }
    family(out, "bulwark_target_samples", "gauge", "Samples in the target's last page.");
    for (TargetStatus t : ts) {
      out.append("bulwark_target_samples").append(targetLabels(t)).append(' ');
      out.append(t.samples()).append('\n');
    }
    return out.toString();
  }

  private static String targetLabels(TargetStatus t) {
    return "{target=\""
        + escape(t.target().url())
        + "\",node=\""
        + escape(t.node() == null ? "" : t.node())
        + "\"}";
  }

  private static void family(StringBuilder out, String name, String type, String help) {
    out.append("# HELP ").append(name).append(' ').append(help).append('\n');
    out.append("# TYPE ").append(name).append(' ').append(type).append('\n');
  }

  private static String number(double v) {
    if (Double.isNaN(v)) {
      return "NaN";
    }
    if (v == Math.rint(v) && Math.abs(v) < 1e15) {
      return Long.toString((long) v);
    }
    return Double.toString(v);
  }

  private static String escape(String label) {
    return label.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
  }
}
