package io.bulwark.web.internal;

import io.bulwark.api.system.SubsystemStatus;
import io.bulwark.web.api.MetricsSource;
import io.vertx.ext.web.RoutingContext;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code GET /metrics}: the appliance's own state in the Prometheus text format, for the site's
 * monitoring: {@code bulwark_subsystem_state} per subsystem (0 up, 1 degraded, 2 down), {@code
 * bulwark_up}, and every gauge the subsystems report (free disk, audit quota, series, refused
 * connections…), the JVM's heap, and the families of every {@link MetricsSource} (the fleet's:
 * findings, capacity, scrape health). Needs an API token or session like every API call.
 */
final class MetricsResource {
  static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

  private final SubsystemChecks checks;

  MetricsResource(SubsystemChecks checks) {
    this.checks = checks;
  }

  void metrics(RoutingContext ctx) {
    List<SubsystemStatus> statuses = checks.statuses();
    StringBuilder out = new StringBuilder(4096);
    out.append("# HELP bulwark_up 1 while every subsystem is up, 0 otherwise.\n")
        .append("# TYPE bulwark_up gauge\n")
        .append("bulwark_up ")
        .append(SubsystemChecks.overall(statuses).ordinal() == 0 ? 1 : 0)
        .append('\n');
    out.append("# HELP bulwark_subsystem_state State of a subsystem: 0 up, 1 degraded, 2 down.\n")
        .append("# TYPE bulwark_subsystem_state gauge\n");
    Map<String, Double> gauges = new TreeMap<>();
    for (SubsystemStatus s : statuses) {
      out.append("bulwark_subsystem_state{subsystem=\"")
          .append(escape(s.subsystem()))
          .append("\"} ")
          .append(s.state().ordinal())
          .append('\n');
      s.measurements().forEach((name, value) -> gauges.putIfAbsent(name, value));
    }
    gauges.forEach(
        (name, value) -> {
          if (!validName(name)) {
            return;
          }
          out.append("# TYPE ")
              .append(name)
              .append(name.endsWith("_total") ? " counter\n" : " gauge\n")
              .append(name)
              .append(' ')
              .append(number(value))
              .append('\n');
        });
    Runtime rt = Runtime.getRuntime();
    out.append("# HELP bulwark_jvm_heap_used_bytes Heap in use.\n")
        .append("# TYPE bulwark_jvm_heap_used_bytes gauge\n")
        .append("bulwark_jvm_heap_used_bytes ")
        .append(rt.totalMemory() - rt.freeMemory())
        .append('\n');
    out.append("# HELP bulwark_jvm_heap_max_bytes The most heap the JVM may use (-Xmx).\n")
        .append("# TYPE bulwark_jvm_heap_max_bytes gauge\n")
        .append("bulwark_jvm_heap_max_bytes ")
        .append(rt.maxMemory())
        .append('\n');
    for (MetricsSource source : checks.sources()) {
      try {
        String families = source.exposition();
        out.append(families);
        if (!families.isEmpty() && !families.endsWith("\n")) {
          out.append('\n');
        }
      } catch (RuntimeException e) {
        out.append("# a metrics source failed and is left out: ")
            .append(String.valueOf(e).replace('\n', ' '))
            .append('\n');
      }
    }
    ctx.response()
        .putHeader("Content-Type", CONTENT_TYPE)
        .putHeader("Cache-Control", "no-store")
        .end(out.toString());
  }

  static boolean validName(String name) {
    return name.matches("[a-zA-Z_:][a-zA-Z0-9_:]*");
  }

  private static String number(Double value) {
    if (value == null || value.isNaN()) {
      return "NaN";
    }
    if (value.isInfinite()) {
      return value > 0 ? "+Inf" : "-Inf";
    }
    if (value == Math.rint(value) && Math.abs(value) < 1e15) {
      return Long.toString(value.longValue());
    }
    return String.format(Locale.ROOT, "%s", value);
  }

  private static String escape(String label) {
    return label.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
  }
}
