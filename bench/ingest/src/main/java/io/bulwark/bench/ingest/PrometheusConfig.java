package io.bulwark.bench.ingest;

import java.nio.file.Path;

/**
 * The {@code prometheus.yml} that makes a Prometheus server scrape exactly the targets Bulwark
 * scrapes: one job that reads the same {@code file_sd} file (whose entries carry each node's {@code
 * __metrics_path__}), with the same interval and timeout as Bulwark's telemetry defaults. No rules,
 * no remote write, no self-scrape: the server only ingests.
 */
final class PrometheusConfig {
  private PrometheusConfig() {}

  static String render(Path targetsFile, long intervalMillis, long timeoutMillis) {
    return "# Written by the ingest benchmark's simulator: the targets Bulwark scrapes.\n"
        + "global:\n"
        + "  scrape_interval: "
        + intervalMillis
        + "ms\n"
        + "  scrape_timeout: "
        + timeoutMillis
        + "ms\n"
        + "  evaluation_interval: 1m\n"
        + "scrape_configs:\n"
        + "  - job_name: dcgm\n"
        + "    file_sd_configs:\n"
        + "      - files: ['"
        + targetsFile.toAbsolutePath().toString().replace("'", "''")
        + "']\n"
        + "        refresh_interval: 1m\n";
  }
}
