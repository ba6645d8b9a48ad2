package io.bulwark.api.telemetry;

import java.util.Map;
import java.util.Objects;

/**
 * One endpoint to scrape, as a Prometheus {@code file_sd} entry describes it: {@code host:port},
 * the metrics path (the {@code __metrics_path__} label, default {@code /metrics}), the scheme
 * ({@code __scheme__}, default {@code http}) and the remaining labels.
 */
public record ScrapeTarget(
    String address, String scheme, String metricsPath, Map<String, String> labels) {
  public ScrapeTarget {
    Objects.requireNonNull(address, "address");
    scheme = scheme == null || scheme.isEmpty() ? "http" : scheme;
    metricsPath = metricsPath == null || metricsPath.isEmpty() ? "/metrics" : metricsPath;
    labels = Map.copyOf(labels);
  }

  /** Returns the URL this target is scraped at. */
  public String url() {
    return scheme + "://" + address + (metricsPath.startsWith("/") ? "" : "/") + metricsPath;
  }
}
